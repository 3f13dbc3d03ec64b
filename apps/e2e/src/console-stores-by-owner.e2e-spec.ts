import axios from 'axios';
import type { Browser, Page } from 'playwright-core';
import { aV2Message, aV2Submission, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';
import { installAnApplication, type InstalledApplication } from './integrator';

/**
 * Issue 30, item 3, in a real browser: a portal's own default store and an installed application's
 * default store, each with its own objects and errors, are told apart by owner on the overview, in
 * the store filter, on the errors page their cards link to, and in the inspector.
 */
describe('the console labels every store by its owner', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let app: InstalledApplication;
  let browser: Browser;

  const card = (page: Page, owner: string) => page.locator(`section[data-owner="${owner}"][data-store="default"]`);
  const listedErrors = (page: Page) => page.locator('ul.errors > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-external-object-id')));

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    portal = await stack.createPortal();
    app = await installAnApplication(stack, portal, { developer: 'Owner developer', application: 'Owner connector' });
    const own = gatewayClient(stack, portal);
    await own.putV2(
      aV2Submission('CONTACT', [
        aV2Message({ externalObjectId: 'mine-ok', properties: { email: 'mine@example.com', firstname: 'Mine' } }),
        aV2Message({ externalObjectId: 'mine-bad', properties: { email: 'not-an-address', firstname: 'Bad' } }),
      ]),
    );
    await own.statusWhen('CONTACT', 'mine-ok', (status) => status.lastProcessedAt !== null && status.errors.length === 0, 'mine-ok to be applied');
    await own.statusWhen('CONTACT', 'mine-bad', (status) => status.errors.some((error) => error.status === 'OPEN'), 'mine-bad to fail');
    // The application's own default store; it has no settings of its own, so its object fails there.
    const stored = await axios.put(
      `${stack.gatewayUrl}/extensions/ecomm/v2/stores`,
      { id: 'default', label: 'Connector shop' },
      { headers: { authorization: `Bearer ${app.accessToken}` }, validateStatus: () => true },
    );
    expect(stored.status).toBeLessThan(300);
    const theirs = gatewayClient(stack, { accessToken: app.accessToken });
    await theirs.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'theirs', properties: { email: 'theirs@example.com' } })]));
    await theirs.statusWhen('CONTACT', 'theirs', (status) => status.errors.some((error) => error.status === 'OPEN'), 'theirs to fail');
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  it("when a portal and its application both have a default store, then each is labelled by owner, each card's error link opens only its errors, and the inspector shows and switches whose data it reads", async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');

    // The overview: two default stores, told apart by owner.
    await card(page, 'direct').getByRole('heading').filter({ hasText: "Portal's own (direct use)" }).waitFor();
    await card(page, app.appId)
      .getByRole('heading')
      .filter({ hasText: `Application Owner connector (${app.appId})` })
      .waitFor();
    await expectAccessible(page, 'overview, stores by owner');
    await screenshot(page, 'stores-by-owner');

    // The application's card links to its own errors only.
    await card(page, app.appId).locator('ul.error-types a').first().click();
    await page.waitForURL(`**/errors?owner=${app.appId}&storeId=default&errorType=*`);
    await page.locator('ul.errors > li[data-external-object-id="theirs"]').waitFor();
    expect(await listedErrors(page)).toEqual(['theirs']);
    // The store filter: one choice per owner's default store, labelled by owner, the link's one picked.
    await page.getByLabel('Store').locator('option', { hasText: 'Owner connector' }).waitFor({ state: 'attached' });
    const options = await page.getByLabel('Store').locator('option').allInnerTexts();
    expect(options).toEqual(['All stores', "default · Portal's own (direct use)", `default · Application Owner connector (${app.appId})`]);
    expect(await page.getByLabel('Store').inputValue()).toBe(`${app.appId}/default`);
    await expectAccessible(page, 'errors, one owner');

    // The portal's card links to the portal's errors only.
    await page.getByRole('link', { name: 'Overview' }).click();
    await card(page, 'direct').locator('ul.error-types a').first().click();
    await page.waitForURL('**/errors?owner=direct&storeId=default&errorType=*');
    await page.locator('ul.errors > li[data-external-object-id="mine-bad"]').waitFor();
    expect(await listedErrors(page)).toEqual(['mine-bad']);

    // The application's object, inspected from its error: the inspector says whose data it is.
    await page.getByLabel('Error type').selectOption('');
    await page.getByLabel('Store').selectOption(`${app.appId}/default`);
    await page.waitForURL(`**/errors?owner=${app.appId}&storeId=default*`);
    await page.getByRole('link', { name: 'Inspect Contacts theirs' }).click();
    // The application's name comes with the installs list, which may arrive after the object: the label is waited for.
    await page
      .locator(`[data-testid="inspector-owner"][data-owner="${app.appId}"]`)
      .filter({ hasText: `Application Owner connector (${app.appId})` })
      .waitFor();
    expect(await page.getByLabel('Whose data').inputValue()).toBe(app.appId);

    // Switched to the portal's own data, the portal's applied object is found.
    await page.getByLabel('Whose data').selectOption({ label: "Portal's own (direct use)" });
    await page.getByLabel('External id').fill('mine-ok');
    await page.getByLabel('External id').press('Enter');
    await page.locator('[data-testid="inspector-owner"][data-owner="direct"]').waitFor();
    await page.locator('[data-testid="sync-status"][data-status="applied"]').waitFor();
    expect(await page.getByTestId('inspector-owner').innerText()).toContain("Portal's own (direct use)");
    await expectAccessible(page, 'inspector, owner switched');
  });

  it("when the errors page retries every object with an error type in the direct default store, then only the portal's objects are retried, not the application's store of the same name", async () => {
    // The application now has settings, and one contact of its own with the same error as the portal's mine-bad.
    const saved = await axios.put(
      `${stack.gatewayUrl}/extensions/ecomm/v2/settings`,
      {
        enabled: true,
        mappings: {
          CONTACT: { properties: [{ externalPropertyName: 'email', crmPropertyName: 'email' }] },
          DEAL: { properties: [{ externalPropertyName: 'dealstage', crmPropertyName: 'dealstage' }] },
        },
      },
      { params: { hapikey: app.developerKey, appId: app.appId }, validateStatus: () => true },
    );
    expect([saved.status, saved.data.message]).toEqual([200, undefined]);
    const theirs = gatewayClient(stack, { accessToken: app.accessToken });
    await theirs.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'theirs-bad', properties: { email: 'not-an-address' } })]));
    await theirs.statusWhen(
      'CONTACT',
      'theirs-bad',
      (status) => status.errors.some((error) => error.status === 'OPEN' && error.type === 'INVALID_EMAIL_ADDRESS'),
      'theirs-bad to fail',
    );

    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.goto(`${stack.gatewayUrl}/console/portals/${portal.portalId}/errors?owner=direct&storeId=default&errorType=INVALID_EMAIL_ADDRESS`);
    await page.locator('ul.errors > li[data-external-object-id="mine-bad"]').waitFor();
    expect(await listedErrors(page)).toEqual(['mine-bad']);
    await page.getByRole('button', { name: 'Retry every object with INVALID_EMAIL_ADDRESS' }).click();
    // Issue 30, item 8: the retry takes the page's owner, as the list does: one object, not the application's too.
    await page.getByRole('status').filter({ hasText: 'Retry sent for 1 object (every object with INVALID_EMAIL_ADDRESS)' }).waitFor();
  });
});
