import axios from 'axios';
import type { Browser } from 'playwright-core';
import type { ConsoleCrmExchanges } from '@ecomm-sync/contracts';
import { CrmAdminClient, HttpCrmClient } from '@ecomm-sync/crm-client';
import { aV2Message, aV2Submission, type TestPortal, type TestStack, waitFor } from '@ecomm-sync/testing';
import { consoleUrl, expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';

/** A property value the portal's built-in CRM refuses on demand: it answers 207 naming the input. */
const REFUSED = 'refuse-me-in-the-crm';
const LIMITS = { dailyCap: 1_000_000, timeZone: 'UTC', searchPerSecond: 100, invalidMarker: REFUSED };

/**
 * Issue 29, item 3 (decision 0051): a contact's CRM exchanges, a 207 that refused it and a 429 the
 * CRM answered before it took it, seen in the object inspector of a real browser; the operator
 * sees the failures per CRM account; and no token or key is anywhere in the stored request log.
 */
describe('the CRM request log in the console', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let browser: Browser;
  let admin: CrmAdminClient;

  const exchangesOf = async (externalObjectId: string) =>
    (
      await axios.get<ConsoleCrmExchanges>(`${stack.gatewayUrl}/console/api/v1/objects/crm-exchanges`, {
        params: { hapikey: portal.apiKey, storeId: 'default', objectType: 'CONTACT', externalObjectId },
      })
    ).data.results;

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    portal = await stack.createPortal();
    admin = new CrmAdminClient(stack.crmUrl, stack.adminToken);
    await admin.setLimits(portal.portalId, { burstPer10s: 1_000, ...LIMITS });
    const client = gatewayClient(stack, portal);

    // The CRM refuses the contact's first write (207): it gets an error record.
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'grace', changedAt: 1_000, properties: { email: 'grace@example.com', firstname: REFUSED } })]),
    );
    await client.statusWhen('CONTACT', 'grace', (status) => status.errors.some((error) => error.status === 'OPEN'), 'the refused contact to get an error');

    // One request per 4 s, and this test spends the window first: the applier's next request is answered 429,
    // and tried again after the CRM's Retry-After (within the applier's CRM_MAX_WAIT_MS).
    await admin.setLimits(portal.portalId, { burstPer10s: 1, intervalMs: 4_000, ...LIMITS });
    // A 429 to this request says the applier's own requests filled the window already.
    await new HttpCrmClient({ baseUrl: stack.crmUrl, token: portal.crmToken, maxWaitMs: 0 }).listDealPipelines().catch(() => undefined);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'grace', changedAt: 2_000, properties: { firstname: 'Grace' } })]));
    await client.statusWhen('CONTACT', 'grace', (status) => status.crmId !== null, 'the contact to be written once the CRM takes it');
    await admin.setLimits(portal.portalId, { burstPer10s: 1_000, ...LIMITS });
    await waitFor(
      async () => {
        const statuses = new Set((await exchangesOf('grace')).map((exchange) => exchange.status));
        return statuses.has(207) && statuses.has(429) && statuses.has(200);
      },
      { timeoutMs: 30_000, message: "the contact's 207, 429 and 200 exchanges in the request log" },
    );
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  it("when the stored request log is searched, then no token or key of the stack's is in any of its documents", async () => {
    const documents = await (await stack.syncCollection('crm_exchanges')).find({}).toArray();
    expect(documents.length).toBeGreaterThan(0);
    const stored = JSON.stringify(documents);
    for (const secret of [portal.crmToken, portal.apiKey, stack.adminToken]) expect(stored).not.toContain(secret);
    // Every request carried the CRM token in its authorization header: each one kept it redacted.
    expect(documents.every((document) => document.request.headers.authorization === '[redacted]')).toBe(true);
  });

  it("when the applier sent the contact's batches, then each of their exchanges records the tenant it was sent for (the portal's own)", async () => {
    const exchanges = await exchangesOf('grace');
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.map((exchange) => exchange.appId)).toEqual(exchanges.map(() => null));
  });

  it('when a customer inspects the contact, then its CRM exchanges show the 207 that refused it, the 429 and the 200, with correlation ids and redacted bodies', async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.goto(consoleUrl(stack, `portals/${portal.portalId}/inspector?storeId=default&objectType=CONTACT&externalObjectId=grace`));
    const exchanges = page.locator('section[aria-labelledby="crm-exchanges"]');
    const partial = exchanges.locator('[data-testid="crm-exchange"][data-status="207"]').first();
    const limited = exchanges.locator('[data-testid="crm-exchange"][data-status="429"]').first();
    await partial.waitFor();
    await limited.waitFor();
    await exchanges.locator('[data-testid="crm-exchange"][data-status="200"]').first().waitFor();
    expect(await partial.innerText()).toContain('207 partial: some inputs refused');
    expect(await partial.innerText()).toContain('/crm/v3/objects/contacts/batch/upsert');
    expect(await limited.innerText()).toContain('429 rate-limited');
    // The hosted CRM's 429 body carries its correlation id.
    expect(await limited.locator('td[data-correlation-id]').innerText()).toMatch(/^[0-9a-f-]{36}$/);

    await partial.getByText('Request and answer (secrets removed)').click();
    const answer = partial.getByLabel(/^Answer body of POST/);
    expect(await answer.innerText()).toContain('VALIDATION_ERROR');
    expect(await answer.innerText()).toContain('is marked invalid for this account');
    expect(await partial.locator('dl.headers').first().innerText()).toMatch(/authorization\s+\[redacted\]/);
    expect(await page.content()).not.toContain(portal.crmToken);
    await expectAccessible(page, 'inspector with CRM exchanges');
    await screenshot(page, 'inspector-crm-exchanges');
  });

  it('when the operator opens the operations page, then the failed exchanges of the portal’s CRM account are listed', async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'operator', { 'Admin token': stack.adminToken });
    await page.waitForURL('**/console/operations');
    const account = page.locator(`section[data-crm-account="builtin:${portal.portalId}"]`);
    await account.locator('[data-testid="crm-exchange"][data-status="429"]').first().waitFor();
    await account.locator('[data-testid="crm-exchange"][data-status="207"]').first().waitFor();
    expect(await account.locator('[data-testid="crm-exchange"][data-failed="false"]').count()).toBe(0);
    expect(await page.content()).not.toContain(portal.crmToken);
    await expectAccessible(page, 'operations with failed CRM exchanges');
    await screenshot(page, 'operations-crm-failures');
  });
});
