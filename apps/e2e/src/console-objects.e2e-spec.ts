import axios from 'axios';
import type { Browser, Page } from 'playwright-core';
import { aV2Message, aV2Submission, waitFor, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { consoleUrl, expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';

/**
 * Issue 14, pages 3 and 4 in a real browser (Debian's chromium, playwright-core) against the whole
 * stack: an object with INVALID_EMAIL_ADDRESS is inspected, its mapping fixed on the mappings page
 * after a dry run, saved, and the inspector then shows it applied. axe-core on both pages;
 * screenshots into docs/console/.
 */
describe('the console object inspector and mappings in a browser', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let otherPortal: TestPortal;
  let browser: Browser;

  async function signInAsCustomer(page: Page) {
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
  }

  /** The CONTACT mapping row whose store property is `name`. */
  async function contactRow(page: Page, name: string) {
    const rows = page.locator('[data-mapping^="CONTACT-"]');
    for (let i = 0; i < (await rows.count()); i++) {
      if ((await rows.nth(i).getByLabel('Store property').inputValue()) === name) return rows.nth(i);
    }
    throw new Error(`no CONTACT mapping of ${name}`);
  }

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    [portal, otherPortal] = [await stack.createPortal(), await stack.createPortal()];
    const client = gatewayClient(stack, portal);
    // The sender's `email` is not an address; its `contact_email` is.
    await client.putV2(
      aV2Submission('CONTACT', [
        aV2Message({
          externalObjectId: 'bad-email',
          changedAt: '1700000000000',
          properties: { email: 'not-an-address', contact_email: 'alan@example.com', firstname: 'Alan' },
        }),
      ]),
    );
    await client.statusWhen(
      'CONTACT',
      'bad-email',
      (status) => status.errors.some((error) => error.type === 'INVALID_EMAIL_ADDRESS' && error.status === 'OPEN'),
      'bad-email to fail with INVALID_EMAIL_ADDRESS',
    );
    await gatewayClient(stack, otherPortal).putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'theirs', properties: { email: 'theirs@example.com' } })]),
    );
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  it('when an object with INVALID_EMAIL_ADDRESS is inspected, its mapping dry-run, fixed and saved, then the inspector shows it applied', async () => {
    const page = await newPage(browser);
    await signInAsCustomer(page);

    // The inspector: looked up from the keyboard.
    await page.getByRole('link', { name: 'Object inspector' }).click();
    await page.getByRole('heading', { name: 'No object looked up yet' }).waitFor();
    await expectAccessible(page, 'inspector, empty');
    await screenshot(page, 'inspector-empty');
    await page.getByLabel('Object type').selectOption('CONTACT');
    await page.getByLabel('External id').fill('bad-email');
    await page.getByLabel('External id').press('Enter');
    await page.locator('[data-testid="sync-status"][data-status="failed"]').waitFor();
    // The same object is reached from its error on the errors page.
    await page.getByRole('link', { name: 'Errors' }).click();
    await page.getByRole('link', { name: 'Inspect Contacts bad-email' }).click();
    await page.waitForURL('**/inspector?storeId=default&objectType=CONTACT&externalObjectId=bad-email');
    await page.locator('[data-testid="sync-status"][data-status="failed"]').waitFor();
    await page.locator('li[data-error-type="INVALID_EMAIL_ADDRESS"][data-status="OPEN"]').waitFor();
    const message = page.getByTestId('raw-message');
    expect(await message.count()).toBe(1);
    // The change time as sent, shown as a date (2023-11-14T22:13:20Z), the raw number only on hover.
    expect(await message.innerText()).not.toContain('1700000000000');
    expect(await message.locator('time[datetime="2023-11-14T22:13:20.000Z"]').getAttribute('title')).toBe('1700000000000');
    expect(await page.locator('section[aria-labelledby="merged-state"] tr[data-property="contact_email"]').innerText()).toContain('alan@example.com');
    expect(await page.locator('section[aria-labelledby="mapped-now"] tr[data-property="email"]').innerText()).toContain('not-an-address');
    expect(await page.content()).not.toContain(portal.apiKey);
    await expectAccessible(page, 'inspector');
    await screenshot(page, 'inspector');

    // The mappings page: a dry run with the settings as they are shows the error...
    await page.getByRole('link', { name: 'Mappings' }).click();
    await page.getByTestId('settings-check').filter({ hasText: 'These settings can be saved.' }).waitFor();
    const dryRun = page.getByRole('form', { name: 'Dry run' });
    await dryRun.getByLabel('External id').fill('bad-email');
    await dryRun.getByRole('button', { name: 'Dry run' }).click();
    await page.locator('[data-testid="dry-run-errors"] [data-error-type="INVALID_EMAIL_ADDRESS"]').waitFor();

    // ...the enabling rules are checked as one types...
    const emailRow = await contactRow(page, 'email');
    await emailRow.getByLabel('CRM property').fill('e-mail');
    await page.getByTestId('settings-check').filter({ hasText: 'Settings cannot be enabled: mappings.CONTACT must map a property to email' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    await emailRow.getByLabel('CRM property').fill('email');
    // ...and with contact_email mapped to email, the dry run shows the error gone.
    await emailRow.getByLabel('Store property').fill('contact_email');
    await page.getByTestId('settings-check').filter({ hasText: 'These settings can be saved.' }).waitFor();
    await dryRun.getByRole('button', { name: 'Dry run' }).click();
    await page.getByTestId('dry-run-errors').filter({ hasText: 'No errors: it would be written as shown.' }).waitFor();
    expect(await page.locator('[data-testid="dry-run-result"] tr[data-property="email"]').innerText()).toContain('alan@example.com');
    // The dry run saved nothing.
    const stored = (await axios.get(`${stack.gatewayUrl}/extensions/ecomm/v2/settings`, { params: { hapikey: portal.apiKey } })).data;
    expect(stored.mappings.CONTACT.properties.map((m: { externalPropertyName: string }) => m.externalPropertyName)).not.toContain('contact_email');
    await expectAccessible(page, 'mappings');
    await screenshot(page, 'mappings');

    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByTestId('reapply-progress')
      .filter({ hasText: /completed, \d+ objects? processed/ })
      .waitFor();
    await screenshot(page, 'mappings-saved');
    // Saved again as it is: no re-apply comes (the server starts none), and the page says so instead of waiting for one.
    const reapplied = async () =>
      (await axios.get(`${stack.gatewayUrl}/extensions/ecomm/v2/settings/reapply-status`, { params: { hapikey: portal.apiKey } })).data.settingsRev;
    const lastReapply = await reapplied();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('reapply-progress').filter({ hasText: 'Saved. No mapping changed, so nothing is re-applied.' }).waitFor();
    expect(await reapplied()).toBe(lastReapply);

    // The inspector again: applied, with its CRM id and a link to what the CRM answered; the error resolved.
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/inspector?storeId=default&objectType=CONTACT&externalObjectId=bad-email`));
    await page.locator('[data-testid="sync-status"][data-status="applied"]').waitFor();
    expect(Number(await page.getByTestId('crm-id').innerText())).toBeGreaterThan(0);
    // No link to the CRM's own API (it answers 401 without the portal's CRM token): the link leads to the CRM's answers on this page.
    expect(await page.locator('a[href*="/crm/v3/"]').count()).toBe(0);
    await page.getByRole('link', { name: 'See what the CRM answered for it' }).click();
    await page.waitForURL(/#crm-exchanges$/);
    await page.getByTestId('crm-exchange').first().waitFor();
    expect(await page.getByRole('heading', { name: 'CRM exchanges' }).isVisible()).toBe(true);
    await page.locator('li[data-error-type="INVALID_EMAIL_ADDRESS"][data-status="RESOLVED"]').waitFor();
    await expectAccessible(page, 'inspector, applied');
    await screenshot(page, 'inspector-applied');
  });

  it('when a line item is dry-run, then each association says what it would link to, from the objects already synced', async () => {
    const client = gatewayClient(stack, portal);
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'mug', properties: { name: 'Mug', price: '9' } })]));
    const product = await client.statusWhen('PRODUCT', 'mug', (status) => status.crmId !== null, 'the product to be applied');
    await client.putV2(
      aV2Submission('LINE_ITEM', [
        aV2Message({ externalObjectId: 'li-1', properties: { quantity: '1', price: '9' }, associations: { DEAL: ['no-such-deal'], PRODUCT: ['mug'] } }),
      ]),
    );
    await client.statusWhen(
      'LINE_ITEM',
      'li-1',
      (status) => status.errors.some((error) => error.type === 'INVALID_ASSOCIATION_PROPERTY'),
      'the line item to wait for its deal',
    );

    const page = await newPage(browser);
    await signInAsCustomer(page);
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/mappings?storeId=default&objectType=LINE_ITEM&externalObjectId=li-1`));
    await page.getByTestId('settings-check').filter({ hasText: 'These settings can be saved.' }).waitFor();
    await page.getByRole('form', { name: 'Dry run' }).getByRole('button', { name: 'Dry run' }).click();
    const linked = page.locator('tr[data-association="PRODUCT:mug"][data-outcome="links"]');
    await linked.waitFor();
    expect(await linked.locator('td').innerText()).toBe(`links to CRM object ${product.crmId}`);
    expect(await page.locator('tr[data-association="DEAL:no-such-deal"]').getAttribute('data-outcome')).toBe('waits');
    expect(await page.getByTestId('dry-run-result').locator('h3').innerText()).toBe('Would wait, then create li-1 once what it needs is in the CRM');
    await page.locator('[data-testid="dry-run-errors"] [data-error-type="INVALID_ASSOCIATION_PROPERTY"]').waitFor();
    await expectAccessible(page, 'mappings, a dry run with associations');
    await screenshot(page, 'mappings-dry-run-associations');
  });

  it('when an object is not there, then the inspector asks once, not every few seconds, and looks again on demand; the site icon answers', async () => {
    const page = await newPage(browser);
    await signInAsCustomer(page);
    const isLookup = (url: string) => new URL(url).pathname === '/console/api/v1/objects';
    const asked: string[] = [];
    const lookups: number[] = [];
    page.on('request', (request) => {
      if (isLookup(request.url())) asked.push(request.url());
    });
    page.on('response', (response) => {
      if (isLookup(response.url())) lookups.push(response.status());
    });
    // The page's timers run on a clock the test moves: its polling intervals pass without waiting for them.
    await page.clock.install();
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/inspector?storeId=default&objectType=CONTACT&externalObjectId=never-sent`));
    await page.getByRole('heading', { name: 'No such object' }).waitFor();
    expect(lookups).toEqual([404]);
    // Ten of the page's 3-second polling intervals: a poll would be due several times over.
    await page.clock.runFor(30_000);
    await page.getByRole('button', { name: 'Look again' }).click();
    await waitFor(() => lookups.length >= 2, { timeoutMs: 10_000, message: 'a second lookup after "Look again"' });
    await page.getByRole('heading', { name: 'No such object' }).waitFor();
    // A poll during those intervals was asked before "Look again" asked, so it is counted by now: only the two are.
    expect({ asked: asked.length, lookups }).toEqual({ asked: 2, lookups: [404, 404] });

    const icon = await page.request.get(`${stack.gatewayUrl}/favicon.ico`);
    expect({ status: icon.status(), type: icon.headers()['content-type'] }).toEqual({ status: 200, type: expect.stringContaining('image/svg+xml') });
  });

  it('when a customer asks for an external id longer than the API takes, then the form refuses to type it and a link gets a plain sentence', async () => {
    const page = await newPage(browser);
    await signInAsCustomer(page);
    const tooLong = 'x'.repeat(101);
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/inspector?storeId=default&objectType=CONTACT&externalObjectId=${tooLong}`));
    await page.getByRole('heading', { name: 'Check what you asked for' }).waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('The external id must be an ASCII string of 1 to 100 characters.');
    expect(await page.getByRole('alert').innerText()).not.toMatch(/Query parameter|externalObjectId/);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    // The form takes no more than the API does.
    const field = page.getByLabel('External id');
    expect(await field.getAttribute('maxlength')).toBe('100');
    await field.fill('');
    await field.pressSequentially('y'.repeat(105));
    expect((await field.inputValue()).length).toBe(100);
    await expectAccessible(page, 'inspector, a refused lookup');
  });

  it("when a customer inspects another portal's object or opens its mappings by URL, then they are refused and show nothing of it", async () => {
    const page = await newPage(browser);
    await signInAsCustomer(page);
    await page.goto(consoleUrl(stack, `portals/${otherPortal.portalId}/inspector?storeId=default&objectType=CONTACT&externalObjectId=theirs`));
    await page.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
    expect(await page.getByRole('alert').innerText()).toContain(`This credential belongs to portal ${portal.portalId}, not to portal ${otherPortal.portalId}`);
    expect(await page.content()).not.toContain('theirs@example.com');
    expect(await page.getByTestId('raw-message').count()).toBe(0);
    await expectAccessible(page, 'inspector, refused');
    await screenshot(page, 'inspector-refused');

    await page.goto(consoleUrl(stack, `portals/${otherPortal.portalId}/mappings`));
    await page.getByRole('heading', { name: 'You cannot open this page' }).waitFor();
    expect(await page.locator('[data-mapping]').count()).toBe(0);
  });
});
