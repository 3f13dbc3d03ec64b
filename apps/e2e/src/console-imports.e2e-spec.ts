import type { Browser, Page } from 'playwright-core';
import type { ImportView } from '@ecomm-sync/contracts';
import { freePort, startWebhookReceiver, type TestPortal, type TestStack, waitFor, type WebhookReceiver } from '@ecomm-sync/testing';
import { expectAccessible, newPage, screenshot, signIn, startConsoleStack, stopConsoleStack } from './console-browser';
import { gatewayClient } from './gateway-client';
import { installAnApplication, same, startImportWebhook, useImportWebhook, type ImportType, type InstalledApplication } from './integrator';

const COUNTS = { CONTACT: 2, PRODUCT: 1, DEAL: 1, LINE_ITEM: 1 } as const;
const ITEMS: Record<ImportType, { externalObjectId: string; properties: Record<string, string>; associations?: Record<string, string[]> }[]> = {
  CONTACT: [
    { externalObjectId: 'imp-c1', properties: { email: 'imported1@example.com' } },
    { externalObjectId: 'imp-c2', properties: { email: 'imported2@example.com' } },
  ],
  PRODUCT: [{ externalObjectId: 'imp-p1', properties: { name: 'Imported mug' } }],
  DEAL: [
    {
      externalObjectId: 'imp-d1',
      properties: { dealname: 'Imported order', dealstage: 'checkout_completed', amount: '25' },
      associations: { CONTACT: ['imp-c1'] },
    },
  ],
  LINE_ITEM: [
    { externalObjectId: 'imp-l1', properties: { name: 'Imported mug', price: '9', quantity: '2' }, associations: { DEAL: ['imp-d1'], PRODUCT: ['imp-p1'] } },
  ],
};

/**
 * Issue 14, page 5 (second half) and the integrator's reporting: a customer starts an import on
 * the stores page and follows it while the test, acting as the integrator, answers the signed
 * webhook and sends the pages; the integrator then picks the portal on the reporting page.
 */
describe("the console's stores and imports page in a browser", () => {
  let stack: TestStack;
  let portal: TestPortal;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let application: InstalledApplication;
  let integrator: ReturnType<typeof gatewayClient>;

  const useWebhook = (webhookUri: string) =>
    useImportWebhook(stack, application, webhookUri, {
      CONTACT: { properties: [same('email')] },
      PRODUCT: { properties: [same('name')] },
      DEAL: { properties: [same('dealname'), same('dealstage'), { ...same('amount'), dataType: 'NUMBER' }] },
      LINE_ITEM: { properties: [same('name'), { ...same('price'), dataType: 'NUMBER' }, { ...same('quantity'), dataType: 'NUMBER' }] },
    });

  beforeAll(async () => {
    ({ stack, browser } = await startConsoleStack({
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_BACKOFF_BASE_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
      IMPORT_RELEASE_CHECK_INTERVAL_MS: '2000',
    }));
    portal = await stack.createPortal();
    application = await installAnApplication(stack, portal, { developer: 'Importer Co', application: 'Shop connector' });
    integrator = gatewayClient(stack, { accessToken: application.accessToken });
    receiver = await startImportWebhook(application, COUNTS);
    await useWebhook(`${receiver.url}/import`);
    expect((await integrator.http.post('/v1/installs')).status).toBe(204);
  });

  afterAll(async () => {
    await receiver?.close();
    await stopConsoleStack({ stack, browser });
  });

  /** Signs in with the portal's key, opens the stores page and starts an import of `default` for the application. */
  async function startImportOnThePage(page: Page): Promise<number> {
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Stores and imports' }).click();
    await page.getByRole('heading', { name: 'Start an import' }).waitFor();
    await page.getByLabel('Application').selectOption(application.appId);
    await page.getByLabel('Store to import').selectOption('default');
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.waitForURL(/import=\d+/);
    return Number(new URL(page.url()).searchParams.get('import'));
  }

  const cells = (page: Page, type: ImportType) => page.locator(`tr[data-type="${type}"] td`).allInnerTexts();

  // The integrator's pages and ends of an import of `default`.
  const sendPage = (importStartedAt: number, type: ImportType, pageNumber: number, messages: unknown[]) =>
    integrator.http.post('/v2/imports/page', { importStartedAt, pageNumber, storeId: 'default', objectType: type, messages });
  const sendEnd = (importStartedAt: number, type: ImportType, pageCount: number, itemCount: number) =>
    integrator.http.post('/v2/imports/end', { importStartedAt, storeId: 'default', objectType: type, pageCount, itemCount });

  /** Waits until the import of `default` is in `status`, as the API answers it. */
  const importWhen = (importStartedAt: number, status: ImportView['status'], check: (view: ImportView) => boolean = () => true) =>
    waitFor(
      async () => {
        const view: ImportView = (await integrator.http.get(`/v2/imports/${importStartedAt}`, { params: { storeId: 'default' } })).data;
        return view.status === status && check(view) ? view : undefined;
      },
      { message: `import ${importStartedAt} to be ${status}` },
    );

  /** The application starts an import of `default` through the API (its OAuth token, not the page). */
  const startThroughTheApi = async (): Promise<number> => {
    const started = await integrator.http.post('/v2/imports', { storeId: 'default' });
    expect(started.status).toBe(201);
    return started.data.importStartedAt;
  };

  it('when a customer starts an import on the stores page, then the page follows it from the signed webhook to completion', async () => {
    const page = await newPage(browser);
    const importStartedAt = await startImportOnThePage(page);
    const webhook = await waitFor(() => receiver.received.find((r) => (r.body as { importStartedAt?: number }).importStartedAt === importStartedAt), {
      message: 'the import webhook',
    });
    expect(webhook.verified).toEqual({ ok: true });

    // The webhook's answer sets the expected counts; the page shows them without a reload.
    await page.locator('tr[data-type="CONTACT"] td[data-expected]', { hasText: '2' }).waitFor();
    // The list of imports has it too, marked as the one shown.
    await page.locator(`tr[data-import-row="${importStartedAt}"] a[aria-current="true"]`).waitFor({ timeout: 4000 });
    expect(await page.locator('tr[data-attempt="1"] td[data-answer]').innerText()).toBe('HTTP 200');

    // The integrator sends contacts (two pages, then the end) and a page of products.
    const page0 = (type: ImportType, pageNumber: number, messages: unknown[]) => sendPage(importStartedAt, type, pageNumber, messages);
    const end = (type: ImportType, pageCount: number, itemCount: number) => sendEnd(importStartedAt, type, pageCount, itemCount);
    expect((await page0('CONTACT', 0, [ITEMS.CONTACT[0]])).status).toBe(204);
    expect((await page0('CONTACT', 1, [ITEMS.CONTACT[1]])).status).toBe(204);
    expect((await end('CONTACT', 2, 2)).status).toBe(204);
    expect((await page0('PRODUCT', 0, ITEMS.PRODUCT)).status).toBe(204);
    await page.locator('[data-import-status="receiving"]').waitFor();
    await page.locator('tr[data-type="PRODUCT"] td[data-items]', { hasText: '1' }).waitFor();
    expect(await cells(page, 'CONTACT')).toEqual(['2', '2', '2', 'yes']);
    expect(await cells(page, 'PRODUCT')).toEqual(['1', '1', '1', 'no']);
    await expectAccessible(page, 'stores and imports, an import receiving');
    await screenshot(page, 'import-receiving');

    expect((await end('PRODUCT', 1, 1)).status).toBe(204);
    for (const type of ['DEAL', 'LINE_ITEM'] as const) {
      expect((await page0(type, 0, ITEMS[type])).status).toBe(204);
      expect((await end(type, 1, 1)).status).toBe(204);
    }
    await page.locator('[data-import-status="complete"]').waitFor();
    for (const type of ['DEAL', 'LINE_ITEM'] as const) expect(await cells(page, type)).toEqual(['1', '1', '1', 'yes']);
    // Released to the sync by the import-coordinator: the page says so, and the objects are applied.
    await page.getByText('its objects were handed to the sync').waitFor();
    const deal = await integrator.statusWhen('DEAL', 'imp-d1', (s) => s.crmId !== null, 'the imported deal to be applied');
    expect(deal.errors).toEqual([]);
    expect(await page.content()).not.toContain(portal.apiKey);
    await expectAccessible(page, 'stores and imports, an import complete');
    await screenshot(page, 'import-complete');
  });

  it("when the application's import address does not answer, then the page shows every attempt and the failure reason", async () => {
    await useWebhook(`http://127.0.0.1:${await freePort()}/import`);
    try {
      const page = await newPage(browser);
      await startImportOnThePage(page);
      await page.locator('[data-import-status="failed"]').waitFor();
      expect(await page.locator('[data-failure-reason]').innerText()).toMatch(/did not answer properly \(ECONNREFUSED\)/);
      expect(await page.locator('tr[data-attempt] td[data-answer]').allInnerTexts()).toEqual([
        'no answer (ECONNREFUSED)',
        'no answer (ECONNREFUSED)',
        'no answer (ECONNREFUSED)',
      ]);
      await expectAccessible(page, 'stores and imports, an import failed');
      await screenshot(page, 'import-failed');
    } finally {
      await useWebhook(`${receiver.url}/import`);
    }
  });

  it('when the application sends pages but never answers the webhook, then the page shows the import going on with the webhook problem', async () => {
    const silent = await startWebhookReceiver(
      () => application.clientSecret,
      () => 'no-answer',
    );
    await useWebhook(`${silent.url}/import`);
    try {
      const page = await newPage(browser);
      const importStartedAt = await startImportOnThePage(page);
      await waitFor(() => silent.received.find((r) => (r.body as { importStartedAt?: number }).importStartedAt === importStartedAt), {
        message: 'the import webhook',
      });
      expect((await sendPage(importStartedAt, 'CONTACT', 0, [ITEMS.CONTACT[0]])).status).toBe(204);
      await page.locator('[data-webhook-problem]').waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-webhook-problem]').innerText()).toMatch(/failed after pages arrived \(the receiver at .* did not answer properly/);
      await page.locator('[data-import-status="receiving"]').waitFor();
      expect(await cells(page, 'CONTACT')).toEqual(['not known', '1', '1', 'no']);
      await expectAccessible(page, 'stores and imports, an import going on after its webhook failed');
      await screenshot(page, 'import-webhook-problem');

      // Once it completes, the problem is still said: its expected counts stay unknown.
      expect((await sendEnd(importStartedAt, 'CONTACT', 1, 1)).status).toBe(204);
      for (const type of ['PRODUCT', 'DEAL', 'LINE_ITEM'] as const) expect((await sendEnd(importStartedAt, type, 0, 0)).status).toBe(204);
      await page.locator('[data-import-status="complete"]').waitFor();
      expect(await page.locator('[data-webhook-problem]').innerText()).toMatch(/failed after pages arrived .*; the import went on with the pages sent/);
    } finally {
      await silent.close();
      await useWebhook(`${receiver.url}/import`);
    }
  });

  it('when an import was started through the API, then the stores page lists it with the others, newest first, and links to its progress', async () => {
    // The test makes the imports it lists: one complete, then one failed, then one started through
    // the API by the application itself (its OAuth token), not on the page: issue 30, item 8.
    const complete = await startThroughTheApi();
    await importWhen(complete, 'initialized', (view) => view.objectTypes.CONTACT?.expectedCount === COUNTS.CONTACT);
    for (const type of ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'] as const) {
      expect((await sendPage(complete, type, 0, ITEMS[type])).status).toBe(204);
      expect((await sendEnd(complete, type, 1, ITEMS[type].length)).status).toBe(204);
    }
    await importWhen(complete, 'complete');
    await useWebhook(`http://127.0.0.1:${await freePort()}/import`);
    let failed: number;
    try {
      failed = await startThroughTheApi();
      await importWhen(failed, 'failed');
    } finally {
      await useWebhook(`${receiver.url}/import`);
    }
    const importStartedAt = await startThroughTheApi();
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Stores and imports' }).click();
    const table = page.getByRole('table', { name: 'Imports, newest first' });
    const rows = table.locator('tbody tr');
    await table.locator(`tr[data-import-row="${importStartedAt}"]`).waitFor();
    // Newest first: the one started through the API, then the failed one, then the complete one (other tests' imports may be listed too).
    const listed = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-import-row'))));
    expect(listed.filter((at) => [importStartedAt, failed, complete].includes(at))).toEqual([importStartedAt, failed, complete]);
    expect(await rows.first().getAttribute('data-import-row')).toBe(String(importStartedAt));
    const row = (at: number) => table.locator(`tr[data-import-row="${at}"]`);
    expect(await row(failed).locator('td[data-import-state]').getAttribute('data-import-state')).toBe('failed');
    expect(await row(complete).locator('td[data-import-state]').getAttribute('data-import-state')).toBe('complete');
    expect(await row(failed).innerText()).toMatch(/Application Shop connector \(.+\)\s+default\s+Failed: .*ECONNREFUSED/);
    expect(await row(complete).innerText()).toMatch(/Complete\s+5 of 5 expected/);
    await expectAccessible(page, 'stores and imports, the list of imports');
    await screenshot(page, 'import-list');

    // Its link opens its progress on the same page, and the list marks it as the one shown.
    await rows
      .first()
      .getByRole('link', { name: /^Show progress: import of store default started / })
      .click();
    await page.waitForURL(`**/stores?import=${importStartedAt}&store=default&app=${application.appId}`);
    await page.getByRole('heading', { name: /^Import started .* · store default · application / }).waitFor();
    await page.locator(`section[data-import="${importStartedAt}"]`).waitFor();
    expect(await rows.first().getByRole('link').getAttribute('aria-current')).toBe('true');
  });

  it('when a customer opens the stores page, then default offers no Delete and says why, and a refused save shows the service’s message', async () => {
    const page = await newPage(browser);
    await signIn(page, stack, 'customer', { 'Portal API key': portal.apiKey });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Stores and imports' }).click();
    const row = page.locator('tr[data-store-id="default"]');
    await row.waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    expect(await row.innerText()).toContain('Kept while ecommerce is installed: it receives the v1 traffic');
    // The service refuses, the page shows its message as an alert and keeps what was typed.
    await page.getByLabel('Store id').fill('café');
    await page.getByLabel('Label').fill('Bad id');
    await page.getByRole('button', { name: 'Add or update the store' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'Save store café failed:' }).waitFor();
    expect(await alert.innerText()).toBe('Save store café failed: The store id must be an ASCII string of 1 to 100 characters.');
    expect(await page.getByLabel('Store id').inputValue()).toBe('café');
    await expectAccessible(page, 'stores, a refused save');
    await screenshot(page, 'stores-refused');
    // The page moves on (an import started and followed): the refusal of before is gone, not left beside it.
    await page.getByLabel('Application').selectOption(application.appId);
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.waitForURL(/import=\d+/);
    await page.getByRole('heading', { name: /^Import started .* · store default/ }).waitFor();
    expect(await page.getByText('Save store café failed').count()).toBe(0);
  });

  it('when an integrator with one portal opens the reporting page, then that portal is picked by itself and its report shown', async () => {
    await integrator.statusWhen('DEAL', 'imp-d1', (s) => s.crmId !== null, 'the imported deal to be applied');
    const page = await newPage(browser);
    await signIn(page, stack, 'integrator', { 'Developer API key': application.developerKey, 'Application id': application.appId });
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: 'Reporting' }).click();
    // The application's only portal is picked by itself, nothing to choose by hand.
    await page.waitForURL(`**/report?portalId=${portal.portalId}`);
    const picker = page.getByRole('combobox', { name: /^Portal/ });
    // The address names the portal before the picker's options are drawn: wait for the pick itself.
    await picker.locator(`option[value="${portal.portalId}"]:checked`).waitFor({ state: 'attached' });
    expect(await picker.inputValue()).toBe(String(portal.portalId));
    expect(await picker.locator('option').allInnerTexts()).toEqual(['Pick a portal', `Portal ${portal.portalId}`]);
    const store = page.locator('section[data-store="default"]');
    await store.waitFor();
    expect(await store.locator('tr[data-stage="checkout_completed"] td').allInnerTexts()).toEqual(['1', '25.00']);
    expect(await store.locator('tr[data-product="Imported mug"] td').allInnerTexts()).toEqual(['2', '18.00']);
    await expectAccessible(page, 'reporting, an integrator');
    await screenshot(page, 'reporting-integrator');
    // The inspector picks the same only portal, nothing to type or choose.
    await page.getByRole('link', { name: 'Object inspector' }).click();
    await page
      .getByRole('combobox', { name: /^Portal/ })
      .locator(`option[value="${portal.portalId}"]:checked`)
      .waitFor({ state: 'attached' });
    // Back leads to the report, then to the overview: the page's own pick is no step of its own that picks again.
    await page.goBack();
    await page.waitForURL(`**/report?portalId=${portal.portalId}`);
    await page.goBack();
    await page.waitForURL('**/overview');
  });
});
