import axios from 'axios';
import { aV1Contact, freePort, startWebhookReceiver, type TestPortal, TestStack, waitFor, type WebhookReceiver } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';
import { installAnApplication, same, startImportWebhook, useImportWebhook, type ImportType, type InstalledApplication } from './integrator';

const COUNTS = { CONTACT: 3000, PRODUCT: 1000, DEAL: 3000, LINE_ITEM: 3000 } as const;
const PAGE_SIZE = 500;

/** The import message of the n-th object of a type, in the CRM's property names (the app maps them as is). */
function item(type: ImportType, n: number) {
  switch (type) {
    case 'CONTACT':
      return { integratorObjectId: `imp-c-${n}`, propertyNameToValues: { email: `buyer${n}@example.com`, firstname: 'Imported' } };
    case 'PRODUCT':
      return { integratorObjectId: `imp-p-${n}`, propertyNameToValues: { name: `Product ${n}`, price: String(n % 90) } };
    case 'DEAL':
      return {
        integratorObjectId: `imp-d-${n}`,
        propertyNameToValues: { dealname: `Order ${n}`, dealstage: 'processed', hs_assoc__contact_ids: `imp-c-${n}` },
      };
    case 'LINE_ITEM':
      return {
        integratorObjectId: `imp-l-${n}`,
        propertyNameToValues: { quantity: '1', hs_assoc__deal_id: `imp-d-${n}`, hs_assoc__product_id: `imp-p-${n % COUNTS.PRODUCT}` },
      };
  }
}

/**
 * Issue 6 end to end: a customer starts an import; the webhook-dispatcher POSTs the signed
 * webhook to a real HTTP receiver acting as the integrator, which answers the counts; the
 * integrator sends pages and ends with its OAuth token; the import-coordinator releases it all.
 */
describe('bulk import over the running stack', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let application: InstalledApplication;
  let app: ReturnType<typeof gatewayClient>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.start({
      env: {
        WEBHOOK_MAX_ATTEMPTS: '3',
        WEBHOOK_BACKOFF_BASE_MS: '100',
        WEBHOOK_TIMEOUT_MS: '2000',
        IMPORT_RELEASE_CHECK_INTERVAL_MS: '2000',
        LOG_LEVEL: 'warn',
      },
    });
    portal = await stack.createPortal();
    application = await installAnApplication(stack, portal, { developer: 'Importer Co', application: 'Importer' });
    app = gatewayClient(stack, { accessToken: application.accessToken });
    receiver = await startImportWebhook(application, COUNTS);
    await useWebhook(`${receiver.url}/import`);
    expect((await app.http.post('/v1/installs')).status).toBe(204);
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function useWebhook(webhookUri: string) {
    const mappings = {
      CONTACT: { properties: [same('email'), same('firstname')] },
      PRODUCT: { properties: [same('name'), { ...same('price'), dataType: 'NUMBER' }] },
      DEAL: { properties: [same('dealname'), same('dealstage'), same('hs_assoc__contact_ids')] },
      LINE_ITEM: { properties: [{ ...same('quantity'), dataType: 'NUMBER' }, same('hs_assoc__deal_id'), same('hs_assoc__product_id')] },
    };
    expect((await useImportWebhook(stack, application, webhookUri, mappings)).status).toBe(200);
  }

  /** The customer starts an import with the portal's key and the application's id. */
  async function startImport(): Promise<number> {
    const started = await axios.post(`${stack.gatewayUrl}/extensions/ecomm/v1/imports`, undefined, {
      params: { hapikey: portal.apiKey, appId: application.appId },
    });
    expect(started.status).toBe(201);
    expect(started.data).toEqual({ importStartedAt: expect.any(Number), status: 'initialized' });
    return started.data.importStartedAt;
  }

  const state = async (importStartedAt: number) =>
    (await axios.get(`${stack.gatewayUrl}/extensions/ecomm/v1/imports/${importStartedAt}`, { params: { hapikey: portal.apiKey, appId: application.appId } }))
      .data;

  const putPage = (importStartedAt: number, type: ImportType, page: number, messages: unknown[]) =>
    app.http.put(`/v1/import-pages/${importStartedAt}/${type}/${page}`, messages);
  const end = (importStartedAt: number, type: ImportType, pageCount: number, itemCount: number) =>
    app.http.put(`/v1/import-pages/${importStartedAt}/${type}/end`, { pageCount, itemCount });

  it('imports 10,000 objects across the four types: signed webhook, counts, pages, ends, and every object applied; newer sync messages win', async () => {
    const importStartedAt = await startImport();
    const webhook = await waitFor(
      () => receiver.received.find((request) => (request.body as { importStartedAt?: number }).importStartedAt === importStartedAt),
      { message: 'the import webhook' },
    );
    expect(webhook.verified).toEqual({ ok: true });
    expect(webhook.headers['x-crm-signature-version']).toBe('v1');
    expect(webhook.body).toEqual({
      portalId: portal.portalId,
      importStartedAt,
      settingsToImport: expect.arrayContaining(
        ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'].map((objectType) => ({ settingsId: expect.any(Number), objectType })),
      ),
    });
    const counted = await waitFor(
      async () => {
        const current = await state(importStartedAt);
        return current.objectTypes.CONTACT.expectedCount === COUNTS.CONTACT ? current : undefined;
      },
      { message: 'the expected counts from the webhook answer' },
    );
    expect(counted.objectTypes.LINE_ITEM.expectedCount).toBe(COUNTS.LINE_ITEM);

    // A sync message newer than the import, for an object the import also carries.
    await app.putV1('CONTACT', [
      aV1Contact({
        integratorObjectId: 'imp-c-0',
        changeOccurredTimestamp: importStartedAt + 1,
        propertyNameToValues: { email: 'buyer0@example.com', firstname: 'Newer' },
      }),
    ]);

    for (const type of Object.keys(COUNTS) as ImportType[]) {
      const items = Array.from({ length: COUNTS[type] }, (_, n) => item(type, n));
      const pages = Math.ceil(items.length / PAGE_SIZE);
      for (let page = 0; page < pages; page++) {
        const messages = items.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
        const response = await putPage(importStartedAt, type, page, messages);
        expect(response.status).toBe(200);
        if (page === 0) expect(response.data).toEqual(messages);
      }
      if (type === 'CONTACT') expect((await putPage(importStartedAt, type, 0, items.slice(0, PAGE_SIZE))).status).toBe(200); // re-sent: replaces, never duplicates
      expect((await end(importStartedAt, type, pages, items.length)).status).toBe(204);
    }
    const page = await app.http.get(`/v1/import-pages/${importStartedAt}/PRODUCT/1`);
    expect(page.data[0]).toEqual(item('PRODUCT', PAGE_SIZE));

    const syncs = await stack.syncCollection('object_syncs');
    await waitFor(
      async () => (await syncs.countDocuments({ portalId: portal.portalId, appId: application.appId, crmId: { $ne: null } })) >= 10_000 || undefined,
      { timeoutMs: 300_000, intervalMs: 1000, message: 'all 10,000 imported objects to be applied (one of them also got a newer sync message)' },
    );
    const done = await state(importStartedAt);
    expect(done).toMatchObject({ status: 'complete', releasedAt: expect.any(Number) });
    expect(done.objectTypes.DEAL).toEqual({
      settingsId: expect.any(Number),
      expectedCount: COUNTS.DEAL,
      pagesReceived: 6,
      itemsReceived: COUNTS.DEAL,
      ended: true,
    });

    const newer = await app.processed('CONTACT', 'imp-c-0');
    const [contact] = await stack.crm(portal).batchRead('CONTACT', [newer.crmId!], ['firstname']);
    expect(contact.properties.firstname).toBe('Newer');
    const lineItem = await app.processed('LINE_ITEM', 'imp-l-2999');
    expect(lineItem.errors).toEqual([]);
  }, 420_000);

  it('answers 400 with both counts on a mismatch and keeps the import open; takes the same end again; refuses what else comes after it', async () => {
    const importStartedAt = await startImport();
    await putPage(importStartedAt, 'PRODUCT', 0, [item('PRODUCT', 0), item('PRODUCT', 1)]);
    const mismatch = await end(importStartedAt, 'PRODUCT', 2, 3);
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.message).toMatch(/says 2 pages and 3 items, the service received 1 pages and 2 items/);
    expect((await state(importStartedAt)).objectTypes.PRODUCT).toMatchObject({ ended: false, pagesReceived: 1, itemsReceived: 2 });

    await putPage(importStartedAt, 'PRODUCT', 1, [item('PRODUCT', 2)]);
    expect((await end(importStartedAt, 'PRODUCT', 2, 3)).status).toBe(204);
    expect((await end(importStartedAt, 'PRODUCT', 2, 3)).status).toBe(204); // sent again (its answer lost): done already
    expect((await end(importStartedAt, 'PRODUCT', 3, 4)).status).toBe(409);
    expect((await putPage(importStartedAt, 'PRODUCT', 2, [item('PRODUCT', 3)])).status).toBe(409);
    expect((await putPage(999, 'CONTACT', 0, [item('CONTACT', 1)])).status).toBe(404);
    expect(
      (await app.http.put(`/v1/import-pages/${importStartedAt}/CONTACT/0?hapikey=${portal.apiKey}`, [item('CONTACT', 1)], { headers: { authorization: '' } }))
        .status,
    ).toBe(403);
    // The old client's path without the prefix works too.
    const unprefixed = await axios.put(`${stack.gatewayUrl}/import-pages/${importStartedAt}/CONTACT/0`, [item('CONTACT', 1)], {
      headers: { authorization: app.http.defaults.headers.authorization as string },
    });
    expect(unprefixed.status).toBe(200);
  });

  it('imports through v2: a store, pages with associations maps, ends; the objects are applied', async () => {
    const started = await axios.post(
      `${stack.gatewayUrl}/extensions/ecomm/v2/imports`,
      { storeId: 'default' },
      { params: { hapikey: portal.apiKey, appId: application.appId } },
    );
    expect(started.status).toBe(201);
    const { importStartedAt } = started.data;
    const page = (objectType: string, messages: unknown[]) =>
      app.http.post('/v2/imports/page', { importStartedAt, pageNumber: 0, storeId: 'default', objectType, messages });
    expect((await page('CONTACT', [{ externalObjectId: 'v2-imp-c', properties: { email: 'v2import@example.com' } }])).status).toBe(204);
    expect((await page('PRODUCT', [{ externalObjectId: 'v2-imp-p', properties: { name: 'Imported product' } }])).status).toBe(204);
    expect(
      (
        await page('DEAL', [
          { externalObjectId: 'v2-imp-d', properties: { dealname: 'Imported order', dealstage: 'shipped' }, associations: { CONTACT: ['v2-imp-c'] } },
        ])
      ).status,
    ).toBe(204);
    expect(
      (await page('LINE_ITEM', [{ externalObjectId: 'v2-imp-l', properties: { quantity: 2 }, associations: { DEAL: ['v2-imp-d'], PRODUCT: ['v2-imp-p'] } }]))
        .status,
    ).toBe(204);
    const mismatch = await app.http.post('/v2/imports/end', { importStartedAt, storeId: 'default', objectType: 'CONTACT', pageCount: 1, itemCount: 5 });
    expect(mismatch.status).toBe(400);
    for (const objectType of ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM']) {
      expect((await app.http.post('/v2/imports/end', { importStartedAt, storeId: 'default', objectType, pageCount: 1, itemCount: 1 })).status).toBe(204);
    }
    const view = (
      await axios.get(`${stack.gatewayUrl}/extensions/ecomm/v2/imports/${importStartedAt}`, {
        params: { hapikey: portal.apiKey, appId: application.appId, storeId: 'default' },
      })
    ).data;
    expect(view).toMatchObject({ importStartedAt, storeId: 'default', status: 'complete' });
    const lineItem = await app.statusWhen('LINE_ITEM', 'v2-imp-l', (s) => s.crmId !== null, 'the imported line item to be applied');
    expect(lineItem.errors).toEqual([]);
  });

  it('refuses an import in direct mode with a clear 400', async () => {
    const response = await axios.post(`${stack.gatewayUrl}/extensions/ecomm/v1/imports`, undefined, {
      params: { hapikey: portal.apiKey },
      validateStatus: () => true,
    });
    expect(response.status).toBe(400);
    expect(response.data.message).toMatch(/Imports are for applications/);
  });

  it('retries a receiver that is down, then fails the import with the reason and every attempt recorded', async () => {
    await useWebhook(`http://127.0.0.1:${await freePort()}/import`);
    try {
      const importStartedAt = await startImport();
      const failed = await waitFor(
        async () => {
          const current = await state(importStartedAt);
          return current.status === 'failed' ? current : undefined;
        },
        { timeoutMs: 30_000, message: 'the import to fail' },
      );
      expect(failed.failureReason).toMatch(/did not answer properly \(ECONNREFUSED\)/);
      expect(failed.webhook.attempts).toEqual([1, 2, 3].map((attempt) => expect.objectContaining({ attempt, status: null, error: 'ECONNREFUSED' })));
      expect((await putPage(importStartedAt, 'CONTACT', 0, [item('CONTACT', 1)])).status).toBe(409);
    } finally {
      await useWebhook(`${receiver.url}/import`);
    }
  });

  it('keeps an import whose receiver sends pages before its webhook answer fails, and applies it all once every type ended', async () => {
    // The receiver starts sending pages on the webhook and never answers it (the dispatcher gives up).
    const silent = await startWebhookReceiver(
      () => application.clientSecret,
      () => 'no-answer',
    );
    await useWebhook(`${silent.url}/import`);
    try {
      const importStartedAt = await startImport();
      await waitFor(() => silent.received.find((request) => (request.body as { importStartedAt?: number }).importStartedAt === importStartedAt), {
        message: 'the import webhook',
      });
      const types: ImportType[] = ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'];
      // One of each type; the line item names the deal and the product sent with it.
      const n = (type: ImportType) => (type === 'PRODUCT' ? 900_001 % COUNTS.PRODUCT : 900_001);
      for (const type of types) expect((await putPage(importStartedAt, type, 0, [item(type, n(type))])).status).toBe(200);

      const goesOn = await waitFor(
        async () => {
          const current = await state(importStartedAt);
          return current.webhook.problem ? current : undefined;
        },
        { timeoutMs: 30_000, message: 'the webhook to fail for good after the pages' },
      );
      expect(goesOn).toMatchObject({
        status: 'receiving',
        failureReason: null,
        webhook: { problem: { reason: expect.stringContaining('did not answer'), at: expect.any(Number) } },
      });

      for (const type of types) expect((await end(importStartedAt, type, 1, 1)).status).toBe(204);
      const lineItem = await app.statusWhen('LINE_ITEM', 'imp-l-900001', (status) => status.crmId !== null, 'the imported line item to be applied');
      expect(lineItem.errors).toEqual([]);
      expect(await state(importStartedAt)).toMatchObject({ status: 'complete' });
    } finally {
      await silent.close();
      await useWebhook(`${receiver.url}/import`);
    }
  });

  it('starts one import by itself when the application installs again with importOnInstall, however often the install is sent', async () => {
    const v1Settings = {
      enabled: true,
      importOnInstall: true,
      contactSyncSettings: { properties: [{ propertyName: 'email', targetCrmProperty: 'email', dataType: 'STRING' }] },
      dealSyncSettings: { properties: [{ propertyName: 'dealstage', targetCrmProperty: 'dealstage', dataType: 'STRING' }] },
      lineItemSyncSettings: {
        properties: [
          { propertyName: 'order_id', targetCrmProperty: 'hs_assoc__deal_id', dataType: 'STRING' },
          { propertyName: 'product_id', targetCrmProperty: 'hs_assoc__product_id', dataType: 'STRING' },
        ],
      },
    };
    const put = await axios.put(`${stack.gatewayUrl}/extensions/ecomm/v1/settings`, v1Settings, {
      params: { hapikey: application.developerKey, appId: application.appId },
      validateStatus: () => true,
    });
    if (put.status !== 200) throw new Error(JSON.stringify(put.data));
    expect(put.status).toBe(200);
    // Installed since beforeAll: sending the install again starts nothing; after an uninstall, the
    // install sent twice at once (a client's retry) starts one import.
    expect((await app.http.post('/v1/installs')).status).toBe(204);
    expect((await app.http.post('/v1/installs/uninstall')).status).toBe(204);
    const before = receiver.received.length;
    expect((await Promise.all([app.http.post('/v1/installs'), app.http.post('/v1/installs')])).map((answer) => answer.status)).toEqual([204, 204]);
    const webhook = await waitFor(() => receiver.received[before], { message: 'the webhook of the import on install' });
    expect(webhook.verified).toEqual({ ok: true });
    expect(webhook.body).toMatchObject({ portalId: portal.portalId, importStartedAt: expect.any(Number) });
    // An import started by hand afterwards is the next webhook: a second import on install, queued
    // before it, would have come first.
    const started = await startImport();
    await waitFor(() => receiver.received.find((one) => (one.body as { importStartedAt?: number }).importStartedAt === started), {
      message: 'the webhook of the import started by hand',
    });
    expect(receiver.received.slice(before).map((one) => (one.body as { importStartedAt: number }).importStartedAt)).toEqual([
      (webhook.body as { importStartedAt: number }).importStartedAt,
      started,
    ]);
  });
});
