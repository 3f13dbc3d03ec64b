import type { Browser, Page } from 'playwright-core';
import { aV2Message, aV2Submission, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { consoleUrl, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';
import { installAnApplication, type InstalledApplication } from './integrator';

/**
 * Issue 30, item 5: every console page at a phone's width (390 px). Wide tables scroll inside
 * their cards; the page itself never scrolls sideways, so the header spans the whole page.
 */
const PHONE = { width: 390, height: 844 };

describe('the web console at a phone’s width', () => {
  let stack: TestStack;
  let browser: Browser;
  let portal: TestPortal;
  let app: InstalledApplication;

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    portal = await stack.createPortal();
    app = await installAnApplication(stack, portal, { developer: 'Phone developer', application: 'Phone connector' });
    const client = gatewayClient(stack, portal);
    await client.putV2(
      aV2Submission('CONTACT', [
        aV2Message({ externalObjectId: 'a-contact-with-a-rather-long-external-id-0001', properties: { email: 'ada@example.com', firstname: 'Ada' } }),
        aV2Message({ externalObjectId: 'bad-email', properties: { email: 'not-an-address', firstname: 'Alan' } }),
      ]),
    );
    await client.processed('CONTACT', 'bad-email');
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  async function phonePage(): Promise<Page> {
    const context = await browser.newContext({ bypassCSP: true, viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    return page;
  }

  /**
   * How far the page is wider than the phone (0: not at all). Measured against the phone's width,
   * not innerWidth: a mobile browser widens its layout viewport to fit content that overflows.
   */
  const sidewaysOverflow = (page: Page) => page.evaluate<number>(`Math.max(0, document.documentElement.scrollWidth - ${PHONE.width})`);

  async function expectNoSidewaysScroll(page: Page, name: string, ready: () => Promise<unknown>) {
    await ready();
    expect({ page: name, overflowPx: await sidewaysOverflow(page) }).toEqual({ page: name, overflowPx: 0 });
  }

  it('when a customer opens every page at 390 px, then no page scrolls sideways', async () => {
    const page = await phonePage();
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL(`**/console/portals/${portal.portalId}/overview`);
    const base = `portals/${portal.portalId}`;
    const pages: [string, string, () => Promise<unknown>][] = [
      ['overview', `${base}/overview`, () => page.locator('tr[data-object-type="CONTACT"]').first().waitFor()],
      ['errors', `${base}/errors`, () => page.locator('li[data-external-object-id="bad-email"]').waitFor()],
      ['inspector', `${base}/inspector?storeId=default&objectType=CONTACT&externalObjectId=bad-email`, () => page.getByTestId('raw-message').waitFor()],
      ['mappings', `${base}/mappings`, () => page.locator('[data-mapping]').first().waitFor()],
      ['report', `${base}/report`, () => page.getByRole('heading', { name: 'Reporting' }).waitFor()],
      ['stores', `${base}/stores`, () => page.getByRole('heading', { name: 'Stores and imports' }).waitFor()],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(consoleUrl(stack, path));
      await expectNoSidewaysScroll(page, name, ready);
      await screenshot(page, `phone-${name}`);
    }
  });

  it('when an integrator and an operator open their pages at 390 px, then no page scrolls sideways', async () => {
    const integrator = await phonePage();
    await signIn(integrator, stack, 'integrator', { 'Developer API key': app.developerKey, 'Application id': app.appId });
    await integrator.waitForURL(`**/console/apps/${app.appId}/overview`);
    await expectNoSidewaysScroll(integrator, 'integrator overview', () => integrator.getByRole('heading', { name: 'Overview' }).waitFor());

    const operator = await phonePage();
    await signIn(operator, stack, 'operator', { 'Admin token': stack.adminToken });
    await operator.waitForURL('**/console/operations');
    await expectNoSidewaysScroll(operator, 'operations', () => operator.locator('tr[data-queue="mapper.sync-batches"]').waitFor());
    await screenshot(operator, 'phone-operations');
  });
});
