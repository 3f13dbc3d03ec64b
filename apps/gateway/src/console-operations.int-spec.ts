import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqplib from 'amqplib';
import type { Express } from 'express';
import request from 'supertest';
import { MongoCrmBudgets } from '@ecomm-sync/crm-client';
import { createLogger, startHealthServer } from '@ecomm-sync/runtime';
import { namesOf, peekDeadLetters, queueStats } from '@ecomm-sync/messaging';
import { testInfrastructure } from '@ecomm-sync/testing';
import { askReadiness } from './entry-points/ask-readiness';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Issue 14, decision 0036: the operator's dead letters, services' readiness and CRM budgets over the real broker and database. */
describe("the console's operations API", () => {
  const { amqpUrl } = testInfrastructure();
  let fixture: GatewayFixture;
  let app: Express;
  let ready: Server;
  let notReady: Server;
  const admin = (call: request.Test) => call.set('authorization', 'Bearer admin');
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console-ops');
    const logger = createLogger('health-test', 'error');
    [ready, notReady] = [
      await startHealthServer(0, { mongo: () => true }, logger),
      await startHealthServer(0, { mongo: () => true, rabbitmq: () => false }, logger),
    ];
    const budgets = new MongoCrmBudgets(fixture.database.connection);
    await budgets.for('builtin:8301', { burstPer10s: 100, dailyCap: null, timeZone: 'UTC', searchPerSecond: null }).take('request');
    app = await fixture.gateway({
      operatorView: {
        services: [
          { service: 'mapper', url: urlOf(ready) },
          { service: 'applier', url: urlOf(notReady) },
          { service: 'crm', url: 'http://127.0.0.1:1' },
        ],
        queues: () => queueStats(amqpUrl, fixture.prefix),
        peekDeadLetters: (queue, limit) => peekDeadLetters(amqpUrl, fixture.prefix, queue, { limit }),
        askReadiness,
        crmBudgets: () => budgets.list(),
      },
    });
    const connection = await amqplib.connect(amqpUrl);
    const channel = await connection.createConfirmChannel();
    for (const n of [1, 2, 3])
      channel.sendToQueue(namesOf(fixture.prefix, 'mapper.sync-batches').dead, Buffer.from(`{"n":${n}}`), {
        messageId: `m${n}`,
        contentType: 'application/json',
        headers: { 'x-attempt': 3 },
      });
    await channel.waitForConfirms();
    await connection.close();
  });
  afterAll(async () => {
    await Promise.all([ready, notReady].map((server) => new Promise((resolve) => server?.close(resolve))));
    await fixture.close();
  });

  it('when the operator reads a dead-letter queue with a limit, then the first messages show with headers and bodies and all stay there', async () => {
    const { body } = await admin(request(app).get('/console/api/v1/ops/queues/mapper.sync-batches/dead-letters?limit=2')).expect(200);
    expect(body).toMatchObject({ queue: 'mapper.sync-batches', total: 3, limit: 2 });
    expect(body.results).toEqual([
      {
        messageId: 'm1',
        contentType: 'application/json',
        timestamp: null,
        headers: expect.objectContaining({ 'x-attempt': 3 }),
        body: '{"n":1}',
        truncated: false,
      },
      {
        messageId: 'm2',
        contentType: 'application/json',
        timestamp: null,
        headers: expect.objectContaining({ 'x-attempt': 3 }),
        body: '{"n":2}',
        truncated: false,
      },
    ]);
    const again = (await admin(request(app).get('/console/api/v1/ops/queues/mapper.sync-batches/dead-letters')).expect(200)).body;
    // Quorum queues put requeued messages behind the others: peeking part of the queue rotates it.
    expect([again.total, again.results.map((m: { messageId: string }) => m.messageId).sort()]).toEqual([3, ['m1', 'm2', 'm3']]);
  });

  it.each([
    ['an unknown queue', '/console/api/v1/ops/queues/nope/dead-letters', 404, 'No queue nope'],
    ['a limit past 100', '/console/api/v1/ops/queues/mapper.sync-batches/dead-letters?limit=500', 400, 'limit must be an integer from 1 to 100'],
  ])('when the operator asks for %s at %s, then it answers %i in the error shape', async (_name, path, status, message) => {
    const { body } = await admin(request(app).get(path)).expect(status);
    expect(body).toEqual({ status: 'error', message: expect.stringContaining(message), requestId: expect.any(String) });
  });

  it("when the operator reads the services' readiness, then each one's /readyz answer says ready, which dependency fails, or that it did not answer", async () => {
    const { body } = await admin(request(app).get('/console/api/v1/ops/services')).expect(200);
    expect(body.results).toEqual([
      { service: 'mapper', url: urlOf(ready), ready: true, status: 200, detail: 'ready' },
      { service: 'applier', url: urlOf(notReady), ready: false, status: 503, detail: 'not ready: rabbitmq failing' },
      { service: 'crm', url: 'http://127.0.0.1:1', ready: false, status: null, detail: expect.stringMatching(/^no answer: /) },
    ]);
  });

  it("when the operator reads the CRM accounts, then each budget shows its use and its portal's CRM health", async () => {
    const { body } = await admin(request(app).get('/console/api/v1/ops/crm-accounts')).expect(200);
    expect(body.results).toEqual([
      {
        accountKey: 'builtin:8301',
        portalId: 8301,
        usedInWindow: 1,
        usedToday: 1,
        pausedUntil: null,
        reason: null,
        health: { state: 'ok', message: 'the CRM takes changes', parkedChanges: 0 },
      },
    ]);
  });

  it('when a gateway has no operator view, then the pages answer 404 saying so', async () => {
    const { body } = await admin(request(fixture.app).get('/console/api/v1/ops/services')).expect(404);
    expect(body.message).toContain('no view of the broker');
  });
});
