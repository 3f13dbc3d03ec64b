import axios from 'axios';
import type { Browser } from 'playwright-core';
import { setAsideErrors } from '@ecomm-sync/domain';
import { aV2Message, aV2Submission, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { publishDeadLetter } from './dead-letter-publish';
import { gatewayClient } from './gateway-client';

/**
 * Issue 14, decision 0036: the operator's page in a real browser: a dead-lettered message seen
 * with its headers and body, then redriven; every service ready; the CRM account's budget. And what
 * the customer sees of a batch set aside before it was merged (decision 33, addendum).
 */
describe("the console's operations page in a browser", () => {
  let stack: TestStack;
  let portal: TestPortal;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack());
    portal = await stack.createPortal();
    // The connection states the account's limits, so its requests go through a request budget (decision 20).
    await axios.put(
      `${stack.gatewayUrl}/admin/v1/portals/${portal.portalId}/crm-connection`,
      { kind: 'builtin', limits: { burstPer10s: 100, dailyCap: null, timeZone: 'UTC', searchPerSecond: 4 } },
      { headers: { authorization: `Bearer ${stack.adminToken}` } },
    );
    // One contact applied: the portal's CRM account has used its request budget.
    const client = gatewayClient(stack, portal);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'ada', properties: { email: 'ada@example.com', firstname: 'Ada' } })]));
    await client.processed('CONTACT', 'ada');
  });

  afterAll(() => stopConsoleStack({ stack, browser }));

  it('when a message was dead-lettered, then the operator sees its headers and body, every service ready and the CRM budget, and after a redrive what became of it', async () => {
    await publishDeadLetter(stack, 'webhook-dispatcher.requests', '{"kind":"set-aside","portalId":7}', {
      messageId: 'dead-1',
      headers: { 'x-attempt': 5, 'x-last-error': 'the import trigger answered 500', 'x-redriven-at': 1_700_000_000_000 },
    });

    const page = await newPage(browser);
    await signIn(page, stack, 'operator', { 'Admin token': stack.adminToken });
    await page.waitForURL('**/console/operations');
    const row = page.locator('tr[data-queue="webhook-dispatcher.requests"]');
    await row.locator('td[data-dead-letters]', { hasText: '1' }).waitFor();
    await row.getByRole('button', { name: 'Show the dead letters of webhook-dispatcher.requests' }).click();
    const message = page.locator('li[data-message-id="dead-1"]');
    await message.waitFor();
    expect(await message.locator('dl.headers').innerText()).toMatch(/x-last-error\s+the import trigger answered 500/);
    // A moment in a header reads as a date, not as epoch milliseconds.
    expect(await message.locator('dl.headers').innerText()).not.toContain('1700000000000');
    await message.locator('dl.headers time[datetime="2023-11-14T22:13:20.000Z"]').waitFor();
    expect(await message.locator('pre').innerText()).toBe('{"kind":"set-aside","portalId":7}');

    // Every service answers its /readyz; the portal's built-in CRM account has spent requests.
    for (const service of ['gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher', 'crm'])
      await page.locator(`tr[data-service="${service}"] td[data-ready]`, { hasText: /^ready$/ }).waitFor();
    const account = page.locator(`tr[data-account="builtin:${portal.portalId}"]`);
    await account.waitFor();
    expect(Number(await account.locator('td[data-used-today]').innerText())).toBeGreaterThan(0);
    expect(await account.locator('td[data-health]').innerText()).toBe('ok: the CRM takes changes');
    // Nothing secret on the page.
    expect(await page.content()).not.toContain(stack.adminToken);
    await expectAccessible(page, 'operations with dead letters');
    await screenshot(page, 'operations-dead-letters');

    // Closing them gives focus back to the button that showed them, not to the top of the page.
    await page.getByRole('button', { name: 'Close the dead letters of webhook-dispatcher.requests' }).click();
    await message.waitFor({ state: 'detached' });
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label')")).toBe(
      'Show the dead letters of webhook-dispatcher.requests',
    );

    // Issue 30, item 8: a second message that fails its schema too. The peek took nothing out: the
    // redrive moves both back, both fail again at once (a poison message is dead-lettered at its first
    // failure), and the page says so once the counts settled, instead of "2 moved back" beside a count of 2.
    await publishDeadLetter(stack, 'webhook-dispatcher.requests', '{"kind":"set-aside","portalId":8}', { messageId: 'dead-2' });
    await row.locator('td[data-dead-letters]', { hasText: '2' }).waitFor();
    await row.getByRole('button', { name: 'Redrive the dead letters of webhook-dispatcher.requests' }).click();
    const status = page.getByRole('status');
    await status.filter({ hasText: 'Redrive of webhook-dispatcher.requests: 2 messages moved back to the queue' }).waitFor();
    await status
      .filter({
        hasText: 'Redrive of webhook-dispatcher.requests: 2 messages moved back to the queue; both failed again and are back in the dead-letter queue.',
      })
      .waitFor({ timeout: 25_000 });
    // The table agrees with the notice, and focus went to what the redrive did.
    await row.locator('td[data-dead-letters]', { hasText: /^2$/ }).waitFor();
    await page.waitForFunction("document.activeElement?.getAttribute('role') === 'status'", undefined, { timeout: 5000 });
  });

  it('when a batch was set aside before it was merged, then the customer sees that its redrive clears the error, no Retry, and a retry of the type counts it apart', async () => {
    // As the mapper records it when it dead-letters a sync batch (RecordSetAsideUseCase): an open
    // UNKNOWN_ERROR keyed at revision 0, marked with the batch. The object itself was merged before.
    const client = gatewayClient(stack, portal);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'held', properties: { email: 'held@example.com', firstname: 'Held' } })]));
    await client.processed('CONTACT', 'held');
    const repositories = await stack.repositories();
    const set = { queue: 'mapper.sync-batches', attempts: 5, lastError: 'the database did not answer', at: Date.now() };
    const errors = setAsideErrors('CONTACT', [{ externalObjectId: 'held', action: 'UPSERT', rev: 0, settingsRev: 0, changedAt: set.at }], set);
    await repositories.syncErrors.record(
      { tenant: { portalId: portal.portalId, appId: null }, storeId: 'default', objectType: 'CONTACT' },
      errors.map((error) => ({ ...error, setAsideBatchId: 'batch-held' })),
      { reopen: true, resolveOthers: false },
    );

    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Errors' }).click();
    await page.getByLabel('Error type').selectOption('UNKNOWN_ERROR');
    const item = page.locator('li[data-external-object-id="held"][data-status="OPEN"]');
    await item.waitFor();
    expect(await item.innerText()).toMatch(/What to do:.*clears when the service’s operators redrive that batch/s);
    expect(await item.getByRole('button').count()).toBe(0);

    await page.getByRole('button', { name: 'Retry every object with UNKNOWN_ERROR' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Retry sent for 0 objects .*1 object with this error waits for a batch that was set aside before it was merged/ })
      .waitFor();
    await expectAccessible(page, 'errors, one set aside');
    await screenshot(page, 'errors-set-aside');
  });
});
