import type { Server } from 'node:http';
import { promises as dns } from 'node:dns';
import type { AddressInfo } from 'node:net';
import amqplib from 'amqplib';
import type { Express } from 'express';
import request from 'supertest';
import { MongoCrmBudgets } from '@ecomm-sync/crm-client';
import { createLogger, healthApp, listen, type ReadinessCheck } from '@ecomm-sync/runtime';
import { namesOf, peekDeadLetters, queueStats } from '@ecomm-sync/messaging';
import { testInfrastructure } from '@ecomm-sync/testing';
import { askReadiness } from './entry-points/ask-readiness';
import { replicaResolver } from './entry-points/resolve-replicas';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 14, decisions 0036 and 0054: the operator's dead letters, services' readiness (every replica)
 * and CRM budgets over the real broker and database.
 */
describe("the console's operations API", () => {
  const { amqpUrl } = testInfrastructure();
  let fixture: GatewayFixture;
  let app: Express;
  const servers: Server[] = [];
  let ports: Record<'mapper' | 'applier' | 'importCoordinator', number>;
  const admin = (call: request.Test) => call.set('authorization', 'Bearer admin');
  const logger = createLogger('health-test', 'error');
  const readyChecks = { mongo: () => true };
  const rabbitmqFailing = { mongo: () => true, rabbitmq: () => false };
  /** A real health server per replica: the first on 127.0.0.1, the others on the same port of 127.0.0.2, … (one pod each). */
  const replicasOf = async (...checks: Record<string, ReadinessCheck>[]) => {
    let port = 0;
    for (const [i, replicaChecks] of checks.entries()) {
      const server = await listen(healthApp(replicaChecks, logger), port, `127.0.0.${i + 1}`);
      servers.push(server);
      port = (server.address() as AddressInfo).port;
    }
    return port;
  };
  // What a headless Service's name resolves to; any other name resolves as usual.
  const clusterDns: Record<string, { address: string; family: number }[]> = {
    'mapper-replicas': [
      { address: '127.0.0.1', family: 4 },
      { address: '127.0.0.2', family: 4 },
    ],
    'applier-replicas': [
      { address: '127.0.0.2', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
  };
  const fakeResolver = replicaResolver(async (host) => {
    if (clusterDns[host]) return clusterDns[host];
    if (host.endsWith('.invalid')) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return dns.lookup(host, { all: true });
  });

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console-ops');
    ports = {
      mapper: await replicasOf(readyChecks, readyChecks),
      applier: await replicasOf(readyChecks, rabbitmqFailing),
      importCoordinator: await replicasOf(rabbitmqFailing),
    };
    const budgets = new MongoCrmBudgets(fixture.database.connection);
    await budgets.for('builtin:8301', { burstPer10s: 100, dailyCap: null, timeZone: 'UTC', searchPerSecond: null }, 'builtin').take('request');
    app = await fixture.gateway({
      operatorView: {
        services: [
          { service: 'mapper', url: `http://mapper-replicas:${ports.mapper}` },
          { service: 'applier', url: `http://applier-replicas:${ports.applier}` },
          { service: 'import-coordinator', url: `http://127.0.0.1:${ports.importCoordinator}` },
          { service: 'crm', url: 'http://127.0.0.1:1' },
          { service: 'webhook-dispatcher', url: 'http://webhook-dispatcher-replicas.invalid:3204' },
        ],
        queues: () => queueStats(amqpUrl, fixture.prefix),
        peekDeadLetters: (queue, limit) => peekDeadLetters(amqpUrl, fixture.prefix, queue, { limit }),
        resolveReplicas: fakeResolver,
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
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
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

  it("when a service's host resolves to two replicas, then each replica's /readyz is asked at its address and the service reads how many are ready", async () => {
    const { body } = await admin(request(app).get('/console/api/v1/ops/services')).expect(200);
    const [mapper, applier] = body.results;
    expect(mapper).toEqual({
      service: 'mapper',
      url: `http://mapper-replicas:${ports.mapper}`,
      state: 'ready',
      ready: true,
      status: 200,
      detail: '2 of 2 replicas ready',
      readyReplicas: 2,
      replicas: [
        { address: '127.0.0.1', ready: true, status: 200, detail: 'ready' },
        { address: '127.0.0.2', ready: true, status: 200, detail: 'ready' },
      ],
    });
    expect(applier).toEqual({
      service: 'applier',
      url: `http://applier-replicas:${ports.applier}`,
      state: 'partly ready',
      ready: false,
      status: null,
      detail: '1 of 2 replicas ready; 127.0.0.2: not ready: rabbitmq failing',
      readyReplicas: 1,
      replicas: [
        { address: '127.0.0.1', ready: true, status: 200, detail: 'ready' },
        { address: '127.0.0.2', ready: false, status: 503, detail: 'not ready: rabbitmq failing' },
      ],
    });
  });

  it("when a service's host is one address or none, then its one /readyz answer says ready, what fails or that it did not answer, and a name that resolves to nothing says so", async () => {
    const { body } = await admin(request(app).get('/console/api/v1/ops/services')).expect(200);
    const summary = body.results.slice(2).map(({ service, state, status, detail, readyReplicas, replicas }: Record<string, unknown>) => ({
      service,
      state,
      status,
      detail,
      readyReplicas,
      replicas: (replicas as { address: string }[]).map((r) => r.address),
    }));
    expect(summary).toEqual([
      { service: 'import-coordinator', state: 'not ready', status: 503, detail: 'not ready: rabbitmq failing', readyReplicas: 0, replicas: ['127.0.0.1'] },
      { service: 'crm', state: 'not ready', status: null, detail: expect.stringMatching(/^no answer: /), readyReplicas: 0, replicas: ['127.0.0.1'] },
      {
        service: 'webhook-dispatcher',
        state: 'not ready',
        status: null,
        detail: 'no address: getaddrinfo ENOTFOUND webhook-dispatcher-replicas.invalid',
        readyReplicas: 0,
        replicas: [],
      },
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
