import type { Browser } from 'playwright-core';
import { aV2Message, aV2Submission, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { consoleUrl, expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';
import { installAnApplication } from './integrator';

/** Issue 14, page 6: the reporting dashboard's numbers equal what the test synced, read from the built-in CRM. */
describe("the console's reporting page in a browser", () => {
  let stack: TestStack;
  let portal: TestPortal;
  let otherPortal: TestPortal;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    [portal, otherPortal] = [await stack.createPortal(), await stack.createPortal()];
    // The shop sends each line item's product name: the demo settings each test portal starts with map it, so the report names the products.
    const client = gatewayClient(stack, portal);
    await client.putV2(
      aV2Submission('PRODUCT', [
        aV2Message({ externalObjectId: 'mug', properties: { name: 'Mug', price: '9' } }),
        aV2Message({ externalObjectId: 'tea', properties: { name: 'Tea', price: '4' } }),
      ]),
    );
    await client.putV2(
      aV2Submission('DEAL', [
        aV2Message({ externalObjectId: 'd1', properties: { dealname: 'Order 1', dealstage: 'checkout_completed', amount: '22' } }),
        aV2Message({ externalObjectId: 'd2', properties: { dealname: 'Order 2', dealstage: 'checkout_completed', amount: '9.5' } }),
        aV2Message({ externalObjectId: 'd3', properties: { dealname: 'Cart 3', dealstage: 'checkout_abandoned', amount: '7.25' } }),
      ]),
    );
    await client.putV2(
      aV2Submission('LINE_ITEM', [
        aV2Message({ externalObjectId: 'l1', properties: { name: 'Mug', price: '9', quantity: '2' }, associations: { DEAL: ['d1'], PRODUCT: ['mug'] } }),
        aV2Message({ externalObjectId: 'l2', properties: { name: 'Tea', price: '4', quantity: '1' }, associations: { DEAL: ['d1'], PRODUCT: ['tea'] } }),
        aV2Message({ externalObjectId: 'l3', properties: { name: 'Mug', price: '9', quantity: '1' }, associations: { DEAL: ['d2'], PRODUCT: ['mug'] } }),
      ]),
    );
    for (const [type, id] of [
      ['PRODUCT', 'mug'],
      ['PRODUCT', 'tea'],
      ['DEAL', 'd1'],
      ['DEAL', 'd2'],
      ['DEAL', 'd3'],
      ['LINE_ITEM', 'l1'],
      ['LINE_ITEM', 'l2'],
      ['LINE_ITEM', 'l3'],
    ])
      await client.processed(type, id);
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  it('when a customer opens the reporting page, then revenue by stage, abandoned checkouts and top products equal what was synced', async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Reporting' }).click();
    await page.waitForURL(`**/console/portals/${portal.portalId}/report`);
    const store = page.locator('section[data-store="default"]');
    await store.waitFor();
    const row = (kind: string, key: string) => store.locator(`tr[${kind}="${key}"]`).locator('td').allInnerTexts();
    expect(await row('data-stage', 'checkout_completed')).toEqual(['2', '31.50']);
    expect(await row('data-stage', 'checkout_abandoned')).toEqual(['1', '7.25']);
    expect([await store.locator('[data-abandoned-count]').innerText(), await store.locator('[data-abandoned-value]').innerText()]).toEqual(['1', '7.25']);
    expect(await store.locator('tr[data-product]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-product')))).toEqual(['Mug', 'Tea']);
    expect(await row('data-product', 'Mug')).toEqual(['3', '27.00']);
    expect(await row('data-product', 'Tea')).toEqual(['1', '4.00']);
    expect(await page.content()).not.toContain(portal.apiKey);
    await expectAccessible(page, 'reporting');
    await screenshot(page, 'reporting');
  });

  it('when a customer opens the overview, then the chart counts the messages received and the objects applied in the last hour and day', async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    const totals = page.locator('[data-activity-totals]');
    await totals.waitFor();
    // Eight messages (two products, three deals, three line items), each object applied once.
    expect([await totals.locator('[data-received-total]').innerText(), await totals.locator('[data-applied-total]').innerText()]).toEqual(['8', '8']);
    expect(await totals.innerText()).toContain('8 messages received, 8 objects applied');
    await page.getByLabel('Last day').check();
    await totals.filter({ hasText: 'Last day' }).waitFor();
    expect([await totals.locator('[data-received-total]').innerText(), await totals.locator('[data-applied-total]').innerText()]).toEqual(['8', '8']);
    await page.getByLabel('Last hour').check();
    await totals.filter({ hasText: 'Last hour' }).waitFor();
    await page
      .getByRole('heading', { name: /Custom|Default/ })
      .first()
      .waitFor();
    await expectAccessible(page, 'overview with the chart');
    await screenshot(page, 'overview-chart');
  });

  it('when a customer adds a store on the stores page and deletes it, then the list shows it, then no longer', async () => {
    const page = await newPage(browser);
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Stores' }).click();
    await page.locator('tr[data-store-id="default"]').waitFor();
    await page.getByLabel('Store id').fill('web');
    await page.getByLabel('Label').fill('Web shop');
    await page.getByLabel('Label').press('Enter');
    const web = page.locator('tr[data-store-id="web"]');
    await web.filter({ hasText: 'Web shop' }).waitFor();
    await expectAccessible(page, 'stores');
    await screenshot(page, 'stores');
    await web.getByRole('button', { name: 'Delete store web' }).click();
    await page.getByRole('status').filter({ hasText: 'Delete store web: done.' }).waitFor();
    await web.waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-store-id="default"]').count()).toBe(1);
  });

  it("when a customer opens another portal's reporting page by URL, then it is refused; an empty portal shows the empty state", async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': otherPortal.apiKey });
    await page.waitForURL('**/overview');
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/report`));
    await page.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
    expect(await page.locator('section[data-store]').count()).toBe(0);
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/stores`));
    await page.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
    expect(await page.locator('tr[data-store-id]').count()).toBe(0);
    await page.goto(consoleUrl(stack, `portals/${otherPortal.portalId}/report`));
    await page.getByRole('heading', { name: 'Nothing to report yet' }).waitFor();
    await expectAccessible(page, 'reporting, empty');
    await screenshot(page, 'reporting-empty');
  });

  it('when a customer or an integrator opens a page of a portal that does not exist by URL, then it is refused, never "Nothing to report yet"', async () => {
    const unknown = 987_654_321;
    const refused = async (path: string) => {
      await page.goto(consoleUrl(stack, path));
      await page.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Nothing to report yet' }).count()).toBe(0);
      expect(await page.locator('section[data-store]').count()).toBe(0);
    };
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': otherPortal.apiKey });
    await page.waitForURL('**/overview');
    for (const name of ['report', 'overview', 'errors', 'inspector', 'mappings', 'alerts', 'stores']) await refused(`portals/${unknown}/${name}`);

    const app = await installAnApplication(stack, portal, { developer: 'Report refusals', application: 'Reports' });
    const integrator = await newPage(browser);
    await signIn(integrator, stack, 'integrator', { 'Developer API key': app.developerKey, 'Application id': app.appId });
    await integrator.waitForURL(`**/console/apps/${app.appId}/overview`);
    await integrator.goto(consoleUrl(stack, `apps/${app.appId}/report?portalId=${unknown}`));
    await integrator.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
    expect(await integrator.getByRole('heading', { name: 'Nothing to report yet' }).count()).toBe(0);
    await expectAccessible(integrator, 'reporting, unknown portal');
  });
});
