import axios from 'axios';
import type { Browser, Locator, Page } from 'playwright-core';
import type { AlertNoticeBody } from '@ecomm-sync/contracts';
import { shownDestination } from '@ecomm-sync/domain';
import { aV2Message, aV2Submission, startWebhookReceiver, type TestPortal, type TestStack, waitFor, type WebhookReceiver } from '@ecomm-sync/testing';
import { expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';
import { installAnApplication } from './integrator';

/**
 * Issue 29, item 1 in the console: the alerts page (rules with their state, the install's two
 * among them; destinations, a webhook's signing secret shown once; notices with their delivery)
 * and the overview's alerts card, in chromium against the whole stack. No SMTP server is
 * configured, so an e-mail notice fails, saying why: the page shows both deliveries. An integrator
 * manages its application's rules and destinations in a portal that installed it, apart from the
 * portal's own.
 */
const PHONE = { width: 390, height: 844 };

describe('the console’s alerts page in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let secret = '';

  beforeAll(async () => {
    receiver = await startWebhookReceiver(
      () => secret,
      () => ({ status: 200, json: {} }),
    );
    ({ stack, browser } = await startConsoleStack({ ALERT_EVALUATION_INTERVAL_MS: '500', ALERT_NOTICE_BACKOFF_BASE_MS: '100' }));
  });

  afterAll(async () => {
    await stopConsoleStack({ stack, browser });
    await receiver?.close();
  });

  /** A portal with one open INVALID_EMAIL_ADDRESS error, signed in on its alerts page (through the navigation). */
  async function signedInOnAlerts(page: Page): Promise<TestPortal> {
    const portal = await stack.createPortal();
    const client = gatewayClient(stack, portal);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'bad-email', properties: { email: 'not-an-address' } })]));
    await client.processed('CONTACT', 'bad-email');
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL(`**/console/portals/${portal.portalId}/overview`);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    return portal;
  }

  const rule = (page: Page, name: string) => page.locator(`tr[data-rule-name="${name}"]`);
  /** The store ids a rule form offers ('' for all stores), read once `shown` is among them (the stores come with the overview). */
  const storeChoicesOnce = async (form: Locator, shown: string) => {
    await form.getByLabel('Store').locator(`option[value="${shown}"]`).waitFor({ state: 'attached' });
    return form
      .getByLabel('Store')
      .locator('option')
      .evaluateAll((options) => options.map((option) => option.getAttribute('value')));
  };
  const ruleNames = (page: Page) => page.locator('tr[data-rule-name]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-rule-name')));
  /** Waits for an action's "done" notice. */
  const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  /** A property of the focused element (`id`, `textContent`, or a call such as getAttribute('…')). */
  const focused = (page: Page, what: string) => page.evaluate<string | null | undefined>(`document.activeElement?.${what}`);
  const addDestination = async (page: Page, kind: string, address: string, label: string) => {
    await page.getByLabel('Kind').selectOption({ label: kind });
    await page.getByLabel(address, { exact: true }).fill(label);
    await page.getByRole('button', { name: 'Add the destination' }).click();
    // A URL is shown by its origin and last characters (it may be a credential), an address whole.
    await page.locator(`tr[data-destination="${kind === 'E-mail' ? label : shownDestination('webhook', label)}"]`).waitFor();
  };

  it('when a customer adds destinations and a rule and edits it, then the page shows each change, the secret once and the notices, and install rules offer Disable but no Delete', async () => {
    const page = await newPage(browser);
    const portal = await signedInOnAlerts(page);

    // The install's two rules, enabled, evaluated (ok) within a second.
    for (const name of ['CRM connection failing', 'Import failed']) {
      await page.locator(`tr[data-rule-name="${name}"][data-status="ok"]`).waitFor();
      expect(await rule(page, name).innerText()).toContain('came with the install');
    }
    expect((await ruleNames(page)).sort()).toEqual(['CRM connection failing', 'Import failed']);

    // Destinations: an e-mail address, then a signed webhook whose secret is shown once, focused.
    await addDestination(page, 'E-mail', 'E-mail address', 'ops@shop.example');
    await status(page, 'Destination ops@shop.example added.');
    const webhookUrl = `${receiver.url}/alerts`;
    await addDestination(page, 'Signed webhook', 'Webhook URL', webhookUrl);
    secret = await page.getByTestId('signing-secret').innerText();
    expect(secret).toMatch(/^whsec-\S{20,}$/);
    await page.getByText('Copy it now: it is shown only this once and cannot be shown again.').waitFor();
    expect(await focused(page, `getAttribute('aria-labelledby')`)).toBe('signing-secret-heading');

    // A rule on open INVALID_EMAIL_ADDRESS errors above 5: one such error, so it stays ok.
    const addForm = page.getByRole('form', { name: 'Add a rule' });
    await addForm.getByLabel('Name').fill('Bad e-mails');
    await addForm.getByLabel('Error type').selectOption('INVALID_EMAIL_ADDRESS');
    await addForm.getByLabel('Threshold (open errors)').fill('5');
    await addForm.getByRole('button', { name: 'Add the rule' }).click();
    await status(page, 'Rule “Bad e-mails” added.');
    await page.locator('tr[data-rule-name="Bad e-mails"][data-status="ok"]').waitFor();
    expect(await rule(page, 'Bad e-mails').innerText()).toContain('More than 5 open INVALID_EMAIL_ADDRESS errors');

    // Edited to above 0: the form opens focused, saves, and the rule fires with its figure, one notice per destination.
    await page.getByRole('button', { name: 'Edit rule Bad e-mails' }).click();
    const editForm = page.getByRole('form', { name: 'Edit rule “Bad e-mails”' });
    expect(await focused(page, 'textContent')).toBe('Edit rule “Bad e-mails”');
    await editForm.getByLabel('Threshold (open errors)').fill('0');
    await editForm.getByRole('button', { name: 'Save the rule' }).click();
    await editForm.waitFor({ state: 'detached' });
    expect(await focused(page, 'id')).toBe('rules-heading');
    await status(page, 'Rule “Bad e-mails” saved.');
    await page.locator('tr[data-rule-name="Bad e-mails"][data-status="firing"]').waitFor();
    expect(await rule(page, 'Bad e-mails').innerText()).toContain('More than 0 open INVALID_EMAIL_ADDRESS errors');
    expect(await rule(page, 'Bad e-mails').locator('td[data-value]').innerText()).toMatch(/^1\s+Since .+: 1 open INVALID_EMAIL_ADDRESS error \(threshold 0\)$/);
    await page.locator(`tr[data-notice-rule="Bad e-mails"][data-sent-to="${shownDestination('webhook', webhookUrl)}"][data-delivery="sent"]`).waitFor();
    expect(await page.locator('body').innerText()).not.toContain(webhookUrl);
    const mail = page.locator('tr[data-notice-rule="Bad e-mails"][data-sent-to="ops@shop.example"][data-delivery="failed"]');
    expect(await mail.innerText()).toContain('no SMTP server is configured (ALERT_SMTP_URL)');
    const hooks = () => receiver.received.filter((hook) => (hook.body as AlertNoticeBody).portalId === portal.portalId);
    await waitFor(() => hooks().length >= 1, { timeoutMs: 10_000, message: 'the firing webhook' });
    expect(hooks()).toHaveLength(1);
    expect(hooks()[0]).toMatchObject({ verified: { ok: true }, body: { state: 'firing', rule: { name: 'Bad e-mails' }, value: 1 } });

    // An install rule is disabled, not deleted: it offers no Delete (the API refuses it; gateway spec), a rule the customer made does.
    await page.getByRole('button', { name: 'Disable rule Import failed' }).click();
    await page.locator('tr[data-rule-name="Import failed"][data-status="off"]').waitFor();
    for (const name of ['CRM connection failing', 'Import failed']) {
      expect(
        await rule(page, name)
          .getByRole('button', { name: `Delete rule ${name}` })
          .count(),
      ).toBe(0);
      expect(
        await rule(page, name)
          .getByRole('button', { name: new RegExp(`^(Disable|Enable) rule ${name}$`) })
          .count(),
      ).toBe(1);
    }
    expect(await rule(page, 'Bad e-mails').getByRole('button', { name: 'Delete rule Bad e-mails' }).count()).toBe(1);
    expect((await ruleNames(page)).sort()).toEqual(['Bad e-mails', 'CRM connection failing', 'Import failed']);
    await expectAccessible(page, 'alerts');
    await screenshot(page, 'alerts');

    // The overview's card: the firing rule first, then the others; its link leads back.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Overview' }).click();
    const card = page.getByRole('region', { name: 'Alerts', exact: true });
    await card.locator('li[data-rule-name="Bad e-mails"][data-status="firing"]').waitFor();
    const cardRules = await card
      .locator('li[data-rule-name]')
      .evaluateAll((items) => items.map((li) => [li.getAttribute('data-rule-name'), li.getAttribute('data-status')]));
    expect(cardRules).toEqual([
      ['Bad e-mails', 'firing'],
      ['CRM connection failing', 'ok'],
      ['Import failed', 'off'],
    ]);
    expect(await card.getByTestId('alerts-summary').innerText()).toBe('1 rule is firing. 3 rules, 2 destinations.');
    await expectAccessible(page, 'overview with the alerts card');
    await card.getByRole('link', { name: 'Manage alerts and destinations' }).click();
    await page.waitForURL(`**/console/portals/${portal.portalId}/alerts`);

    // A rule the customer added is deleted, a destination removed; the secret is not shown again.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete rule Bad e-mails' }).click();
    await status(page, 'Rule “Bad e-mails” deleted.');
    await rule(page, 'Bad e-mails').waitFor({ state: 'detached' });
    expect((await ruleNames(page)).sort()).toEqual(['CRM connection failing', 'Import failed']);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove destination ops@shop.example' }).click();
    await page.locator('tr[data-destination="ops@shop.example"]').waitFor({ state: 'detached' });
    await status(page, 'Destination ops@shop.example removed; its pending notices will not be sent.');
    expect(await page.locator(`tr[data-destination="${shownDestination('webhook', webhookUrl)}"]`).count()).toBe(1);
    expect(await page.getByTestId('signing-secret').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(secret);
  });

  it('when the alerts stop answering for a while, then what is shown and half typed stays under a notice, which goes once they answer again', async () => {
    const page = await newPage(browser);
    await signedInOnAlerts(page);
    await rule(page, 'Import failed').waitFor();
    const addForm = page.getByRole('form', { name: 'Add a rule' });
    await addForm.getByLabel('Name').fill('Half typed');
    await addForm.getByLabel('Threshold (open errors)').fill('7');

    // The page's reads of its alerts fail, as through a proxy whose upstream restarts.
    let failing = true;
    await page.route(
      (url) => url.pathname === '/console/api/v1/alerts',
      (route) =>
        failing && route.request().method() === 'GET'
          ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 'error', message: 'Service unavailable' }) })
          : route.fallback(),
    );
    const notUpdated = page.getByRole('alert').filter({ hasText: 'This page could not be updated' });
    await notUpdated.waitFor();
    expect(await notUpdated.innerText()).toMatch(/What you see was read at .+; the page tries again every few seconds\./);
    expect(await addForm.getByLabel('Name').inputValue()).toBe('Half typed');
    expect(await addForm.getByLabel('Threshold (open errors)').inputValue()).toBe('7');
    expect((await ruleNames(page)).sort()).toEqual(['CRM connection failing', 'Import failed']);
    expect(await page.getByRole('heading', { name: 'This page could not be loaded' }).count()).toBe(0);
    await expectAccessible(page, 'alerts, not updated');
    await screenshot(page, 'alerts-not-updated');

    failing = false;
    await notUpdated.waitFor({ state: 'detached' });
    expect(await addForm.getByLabel('Name').inputValue()).toBe('Half typed');
  });

  it('when the alerts page is opened at a phone’s width with a signing secret shown, then the page does not scroll sideways', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signedInOnAlerts(page);
    await addDestination(page, 'Signed webhook', 'Webhook URL', `${receiver.url}/a-rather-long-path/for-the-ecommerce-alerts-of-this-shop`);
    await page.getByTestId('signing-secret').waitFor();
    await page.locator('tr[data-rule-name][data-status="ok"]').first().waitFor();
    const overflow = () => page.evaluate<number>(`Math.max(0, document.documentElement.scrollWidth - ${PHONE.width})`);
    expect({ page: 'alerts', overflowPx: await overflow() }).toEqual({ page: 'alerts', overflowPx: 0 });

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('region', { name: 'Alerts', exact: true }).locator('li[data-rule-name]').first().waitFor();
    expect({ page: 'overview', overflowPx: await overflow() }).toEqual({ page: 'overview', overflowPx: 0 });
  });

  it('when an integrator opens its alerts page, then it manages its application’s rules and destinations in the portal, and sees none of the portal’s own', async () => {
    const portal = await stack.createPortal();
    const alertsApi = `${stack.gatewayUrl}/console/api/v1/alerts`;
    await axios.post(`${alertsApi}/rules`, { name: 'Portal lag', condition: { kind: 'sync-lag', minutes: 30 } }, { params: { hapikey: portal.apiKey } });
    const app = await installAnApplication(stack, portal, { developer: 'Alerting integrator', application: 'Alerting connector' });
    const storePut = { headers: { authorization: `Bearer ${app.accessToken}` } };
    await axios.put(`${stack.gatewayUrl}/extensions/ecomm/v2/stores`, { id: 'connector-web', label: 'Connector web shop' }, storePut);
    const page = await newPage(browser);
    await signIn(page, stack, 'integrator', { 'Developer API key': app.developerKey, 'Application id': app.appId });
    await page.waitForURL(`**/console/apps/${app.appId}/overview`);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Alerts' }).click();
    // The only portal that installed the application is picked by itself.
    await page.waitForURL(`**/console/apps/${app.appId}/alerts?portalId=${portal.portalId}`);
    await page.getByText(`These are your application's rules in portal ${portal.portalId}`).waitFor();
    for (const name of ['CRM connection failing', 'Import failed']) await page.locator(`tr[data-rule-name="${name}"][data-status="ok"]`).waitFor();

    await addDestination(page, 'E-mail', 'E-mail address', 'oncall@connector.example');
    await status(page, 'Destination oncall@connector.example added.');
    const addForm = page.getByRole('form', { name: 'Add a rule' });
    // A rule watches its tenant's stores: the application's own store is offered here.
    await addForm.getByLabel('Store').locator('option[value="connector-web"]').waitFor({ state: 'attached' });
    await addForm.getByLabel('Name').fill('Connector bad e-mails');
    await addForm.getByLabel('Error type').selectOption('INVALID_EMAIL_ADDRESS');
    await addForm.getByLabel('Threshold (open errors)').fill('5');
    await addForm.getByRole('button', { name: 'Add the rule' }).click();
    await status(page, 'Rule “Connector bad e-mails” added.');
    await page.locator('tr[data-rule-name="Connector bad e-mails"][data-status="ok"]').waitFor();

    expect((await ruleNames(page)).sort()).toEqual(['CRM connection failing', 'Connector bad e-mails', 'Import failed']);
    expect(await page.locator('tr[data-destination]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-destination')))).toEqual([
      'oncall@connector.example',
    ]);
    // The application's rule is the application's in that portal; the portal's own are the customer's alone.
    const asApp = (await axios.get(alertsApi, { params: { hapikey: app.developerKey, appId: app.appId, portalId: portal.portalId } })).data;
    expect(asApp.rules.find((r: { name: string }) => r.name === 'Connector bad e-mails')).toMatchObject({ portalId: portal.portalId, appId: app.appId });
    const asPortal = (await axios.get(alertsApi, { params: { hapikey: portal.apiKey } })).data;
    expect(asPortal.rules.map((r: { name: string }) => r.name).sort()).toEqual(['CRM connection failing', 'Import failed', 'Portal lag']);
    expect(asPortal.destinations).toEqual([]);
    await expectAccessible(page, 'alerts of an integrator');
    await screenshot(page, 'alerts-integrator');

    // The customer's rules watch the portal's own data: the application's store is not offered to
    // them (a rule on it would never fire), and the API refuses it saying so.
    await axios.put(`${stack.gatewayUrl}/extensions/ecomm/v2/stores`, { id: 'portal-web', label: 'Portal web shop' }, { params: { hapikey: portal.apiKey } });
    const customerPage = await newPage(browser);
    await signIn(customerPage, stack, 'customer', { 'Portal API key': portal.apiKey });
    await customerPage.waitForURL(`**/console/portals/${portal.portalId}/overview`);
    await customerPage.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Alerts' }).click();
    const customerForm = customerPage.getByRole('form', { name: 'Add a rule' });
    expect(await storeChoicesOnce(customerForm, 'portal-web')).toEqual(['', 'default', 'portal-web']);
    const refused = await axios.post(
      `${alertsApi}/rules`,
      { name: 'On their store', storeId: 'connector-web', condition: { kind: 'sync-lag', minutes: 30 } },
      { params: { hapikey: portal.apiKey }, validateStatus: () => true },
    );
    expect(refused.status).toBe(400);
    expect(refused.data.message).toContain(`storeId "connector-web" names no store of portal ${portal.portalId}'s own data`);

    // A customer signed in with the application's token manages the application's rules: its store is offered.
    const tokenPage = await newPage(browser);
    await signIn(tokenPage, stack, 'customer', { 'OAuth access token': app.accessToken }, 'OAuth access token of an installed application');
    await tokenPage.waitForURL(`**/console/portals/${portal.portalId}/overview`);
    await tokenPage.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Alerts' }).click();
    const tokenForm = tokenPage.getByRole('form', { name: 'Add a rule' });
    expect(await storeChoicesOnce(tokenForm, 'connector-web')).toEqual(['', 'connector-web', 'default']);
  });
});
