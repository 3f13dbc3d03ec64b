import type { Express } from 'express';
import request from 'supertest';
import { TOPICS, type RefreshObjectsMessage, type Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState } from '@ecomm-sync/domain';
import { queueStats, redriveDeadLetters } from '@ecomm-sync/messaging';
import { seedPortal, testInfrastructure, waitFor } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8201;
const KEY = 'pk-console-8201';
const direct: Tenant = { portalId: PORTAL, appId: null };

/** Issue 14: the console's own API over the real database and broker (the matrix is in credentials.int-spec). */
describe('the console API', () => {
  let fixture: GatewayFixture;
  let app: Express;
  const refreshed: RefreshObjectsMessage[] = [];

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console');
    const { amqpUrl } = testInfrastructure();
    app = await fixture.gateway({
      operations: { queues: () => queueStats(amqpUrl, fixture.prefix), redrive: (queue) => redriveDeadLetters(amqpUrl, fixture.prefix, queue) },
    });
    await fixture.broker.subscribeAll(TOPICS.refreshObjects, (body) => refreshed.push(body as RefreshObjectsMessage));
    const { repositories } = fixture.database;
    await seedPortal(repositories, { portalId: PORTAL, apiKey: KEY });
    await repositories.stores.upsert(direct, { id: 'web', label: 'Web shop' });
    await repositories.objectStates.insertNew(
      { tenant: direct, storeId: 'web', objectType: 'CONTACT' },
      ['c1', 'c2', 'c3'].map((externalObjectId) => ({ externalObjectId, state: emptyObjectState() })),
    );
    await repositories.syncErrors.record({ tenant: direct, storeId: 'web', objectType: 'CONTACT' }, [
      { externalObjectId: 'c2', rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS', details: 'not an e-mail [email: nope]', changedAt: 5, erroredAt: 6 },
      { externalObjectId: 'c3', rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS', details: 'not an e-mail [email: nah]', changedAt: 5, erroredAt: 7 },
    ]);
  });
  afterAll(() => fixture.close());

  it('when a customer reads the overview, then each store shows its objects by state and its open errors by type', async () => {
    const { body } = await request(app).get(`/console/api/v1/overview?hapikey=${KEY}`).expect(200);
    const web = body.stores.find((store: { storeId: string }) => store.storeId === 'web');
    expect(web).toMatchObject({
      portalId: PORTAL,
      appId: null,
      label: 'Web shop',
      openErrors: 2,
      openErrorsByType: { INVALID_EMAIL_ADDRESS: 2 },
      lastProcessedAt: null,
    });
    // Each object in one state: the two with open errors are not also counted as not processed.
    expect(web.objectTypes.CONTACT).toEqual({ received: 3, applied: 0, withOpenErrors: 2, waiting: 0, deleted: 0, notProcessed: 1 });
  });

  it('when the CRM refused a write, then the console shows its status, category and correlation id, and the public listing answers as the original did', async () => {
    await fixture.database.repositories.syncErrors.record({ tenant: direct, storeId: 'crm-refusals', objectType: 'DEAL' }, [
      {
        externalObjectId: 'd1',
        rev: 1,
        settingsRev: 1,
        type: 'UNKNOWN_ERROR',
        details: 'Property values were not valid',
        crm: { status: 400, category: 'VALIDATION_ERROR', correlationId: 'corr-9' },
        changedAt: 5,
        erroredAt: 8,
      },
    ]);

    const consoleErrors = (await request(app).get(`/console/api/v1/errors?hapikey=${KEY}&storeId=crm-refusals`).expect(200)).body.results;
    expect(consoleErrors).toEqual([
      expect.objectContaining({ externalObjectId: 'd1', crm: { status: 400, category: 'VALIDATION_ERROR', correlationId: 'corr-9' } }),
    ]);
    const listed = (await request(app).get(`/extensions/ecomm/v2/sync/errors/portal?hapikey=${KEY}`).expect(200)).body.results;
    expect(listed.find((error: { externalObjectId: string }) => error.externalObjectId === 'd1')).not.toHaveProperty('crm');
  });

  it('when errors are filtered by store and status, then each comes with what to do, newest first, paged', async () => {
    const page = (query: string) => request(app).get(`/console/api/v1/errors?hapikey=${KEY}&${query}`).expect(200);
    const first = (await page('storeId=web&limit=1')).body;
    expect(first).toMatchObject({
      offset: 0,
      limit: 1,
      hasMore: true,
      results: [{ externalObjectId: 'c3', status: 'OPEN', retryHelps: true, whatToDo: expect.stringContaining('fix the mapping') }],
    });
    expect((await page('storeId=web&offset=1&limit=1')).body.results.map((e: { externalObjectId: string }) => e.externalObjectId)).toEqual(['c2']);
    expect((await page('storeId=default')).body.results).toEqual([]);
    expect((await page('status=RESOLVED')).body.results).toEqual([]);
  });

  it.each([
    ['an unknown status', 'get', '/console/api/v1/errors?status=MAYBE', undefined, expect.any(String)],
    ['an unknown error type', 'get', '/console/api/v1/errors?errorType=NOPE', undefined, expect.any(String)],
    ['a retry without what to retry', 'post', '/console/api/v1/errors/retry', {}, 'body must be an object with "object", or one with "errorType"'],
    [
      'a retry of an object without its store',
      'post',
      '/console/api/v1/errors/retry',
      { object: { portalId: PORTAL, appId: null, objectType: 'CONTACT', externalObjectId: 'c2' } },
      'body/object is missing the required field "storeId"',
    ],
    [
      'a retry of an unknown error type',
      'post',
      '/console/api/v1/errors/retry',
      { errorType: 'BOGUS' },
      expect.stringMatching(/^body\/errorType must be one of INACTIVE_PORTAL, /),
    ],
  ] as const)('when the request has %s, then it answers 400 in the error shape, naming what to fix', async (_name, method, path, body, message) => {
    const call = request(app)[method](`${path}${path.includes('?') ? '&' : '?'}hapikey=${KEY}`);
    const response = await (body ? call.send(body) : call);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message, requestId: expect.any(String) });
  });

  it('when an object never received is retried, then it answers 404 saying so, and asks the mapper for nothing', async () => {
    const before = refreshed.length;
    const { body } = await request(app)
      .post(`/console/api/v1/errors/retry?hapikey=${KEY}`)
      .send({ object: { portalId: PORTAL, appId: null, storeId: 'web', objectType: 'CONTACT', externalObjectId: 'never-sent' } })
      .expect(404);
    expect(body.message).toBe(
      'Object CONTACT never-sent in store web has no stored state to re-apply: nothing was received for it, or its batch was set aside before it was merged (redrive the dead-lettered batch to merge it)',
    );
    expect(refreshed.length).toBe(before); // the retry answers after its publish is confirmed: none was made
  });

  it('when every object with an error type is retried, then the mapper is asked to re-apply each of them from what is stored', async () => {
    const { body } = await request(app)
      .post(`/console/api/v1/errors/retry?hapikey=${KEY}`)
      .send({ errorType: 'INVALID_EMAIL_ADDRESS', storeId: 'web' })
      .expect(202);
    expect(body).toEqual({ objectsQueued: 2, more: false, notStored: 0, inDeletedStores: 0, setAside: 0, setAsideMore: false });
    await waitFor(() => refreshed.length >= 1, { message: 'the refresh message to be published' });
    expect(refreshed[0]).toEqual({ kind: 'refresh-objects', tenant: direct, storeId: 'web', objectType: 'CONTACT', externalObjectIds: ['c3', 'c2'] });
  });

  it('when the objects with an error type wait for a batch set aside or have no stored state, then none is sent and the answer counts them apart', async () => {
    const setAside = { tenant: direct, storeId: 'set-aside', objectType: 'CONTACT' as const };
    await fixture.database.repositories.stores.upsert(direct, { id: 'set-aside', label: 'Set aside' });
    await fixture.database.repositories.objectStates.insertNew(setAside, [{ externalObjectId: 'merged-before', state: emptyObjectState() }]);
    await fixture.database.repositories.syncErrors.record(
      setAside,
      [
        {
          externalObjectId: 'merged-before',
          rev: 0,
          settingsRev: 0,
          type: 'UNKNOWN_ERROR',
          details: 'set aside',
          changedAt: 5,
          erroredAt: 6,
          setAsideBatchId: 'batch-1',
        },
      ],
      { resolveOthers: false },
    );
    await fixture.database.repositories.syncErrors.record(setAside, [
      { externalObjectId: 'never-merged', rev: 1, settingsRev: 1, type: 'UNKNOWN_ERROR', details: 'x', changedAt: 5, erroredAt: 6 },
    ]);
    const before = refreshed.length;
    const { body } = await request(app)
      .post(`/console/api/v1/errors/retry?hapikey=${KEY}`)
      .send({ errorType: 'UNKNOWN_ERROR', storeId: 'set-aside' })
      .expect(202);
    expect(body).toEqual({ objectsQueued: 0, more: false, notStored: 1, inDeletedStores: 0, setAside: 1, setAsideMore: false });
    const listed = (await request(app).get(`/console/api/v1/errors?hapikey=${KEY}&storeId=set-aside`).expect(200)).body.results;
    const [waiting, neverMerged] = ['merged-before', 'never-merged'].map((id) =>
      listed.find((error: { externalObjectId: string }) => error.externalObjectId === id),
    );
    expect(waiting).toMatchObject({
      setAside: true,
      retryHelps: false,
      whatToDo: expect.stringContaining('clears when the service’s operators redrive that batch'),
    });
    expect(neverMerged).not.toHaveProperty('setAside');
    const one = { portalId: PORTAL, appId: null, storeId: 'set-aside', objectType: 'CONTACT', externalObjectId: 'merged-before' };
    const refused = await request(app).post(`/console/api/v1/errors/retry?hapikey=${KEY}`).send({ object: one }).expect(409);
    expect(refused.body.message).toMatch(/its open errors wait for a batch set aside before it was merged .*; a retry cannot clear them$/);

    // A retry sent after it: once its message is in, any of the first would have come before it.
    const sentinel = { portalId: PORTAL, appId: null, storeId: 'web', objectType: 'CONTACT', externalObjectId: 'c3' };
    await request(app).post(`/console/api/v1/errors/retry?hapikey=${KEY}`).send({ object: sentinel }).expect(202);
    await waitFor(() => refreshed.length > before, { message: 'the sentinel retry to be published' });
    expect(refreshed.slice(before).map((message) => message.externalObjectIds)).toEqual([['c3']]);

    // Once the batch is merged, the error is resolved and read with its type's advice again.
    await fixture.database.repositories.syncErrors.resolveSetAside(setAside, 'batch-1', ['merged-before'], Date.now());
    const resolved = (await request(app).get(`/console/api/v1/errors?hapikey=${KEY}&storeId=set-aside&status=RESOLVED`).expect(200)).body.results;
    expect(resolved).toEqual([expect.objectContaining({ externalObjectId: 'merged-before', status: 'RESOLVED', retryHelps: true })]);
    expect(resolved[0]).not.toHaveProperty('setAside');
  });

  it('when the operator reads the queues, then each queue has its depth, consumers and dead letters, and an unknown queue cannot be redriven', async () => {
    const admin = (call: request.Test) => call.set('authorization', 'Bearer admin');
    const { body } = await admin(request(app).get('/console/api/v1/ops/queues')).expect(200);
    expect(body.results.map((q: { queue: string }) => q.queue)).toEqual([
      'mapper.sync-batches',
      'applier.mapped-changes',
      'mapper.settings-work',
      'import-coordinator.events',
      'webhook-dispatcher.requests',
      'alert-evaluator.notices',
    ]);
    expect(body.results[0]).toEqual({ queue: 'mapper.sync-batches', depth: 0, bulkDepth: 0, consumers: 0, retrying: 0, deadLetters: 0 });
    expect((await admin(request(app).post('/console/api/v1/ops/queues/mapper.sync-batches/redrive')).expect(200)).body).toEqual({
      queue: 'mapper.sync-batches',
      moved: 0,
    });
    expect((await admin(request(app).post('/console/api/v1/ops/queues/nope/redrive')).expect(404)).body.message).toContain('No queue nope');
  });

  it.each([
    [
      'the broker cannot be reached',
      503,
      'amqp://guest:guest@127.0.0.1:1',
      'test-console-unreached',
      /^The broker cannot be reached \(ECONNREFUSED\); try again$/,
    ],
    [
      'the queues of the stack were never declared',
      409,
      undefined,
      'test-console-undeclared',
      /mapper\.sync-batches\.dlq does not exist: no service has declared the queues/,
    ],
  ])('when a redrive fails because %s, then the operator gets %i with what to do, not a 500', async (_case, status, url, prefix, message) => {
    const amqpUrl = url ?? testInfrastructure().amqpUrl;
    const failing = await fixture.gateway({
      operations: { queues: () => queueStats(amqpUrl, prefix), redrive: (queue) => redriveDeadLetters(amqpUrl, prefix, queue) },
    });

    const { body } = await request(failing).post('/console/api/v1/ops/queues/mapper.sync-batches/redrive').set('authorization', 'Bearer admin').expect(status);

    expect(body.message).toMatch(message);
  });

  it.each([
    ['closes the connection (restarting)', Object.assign(new Error('Connection closed: 320 (CONNECTION-FORCED) with message "shutdown"'), { code: 320 }), 503],
    ['closes the socket during the handshake', new Error('Socket closed abruptly during opening handshake'), 503],
    ['fails in a way of ours', new TypeError('cannot read x'), 500],
  ])('when the broker %s during a redrive, then the operator gets %i', async (_case, error, status) => {
    const failing = await fixture.gateway({ operations: { queues: async () => [], redrive: () => Promise.reject(error) } });

    await request(failing).post('/console/api/v1/ops/queues/mapper.sync-batches/redrive').set('authorization', 'Bearer admin').expect(status);
  });
});
