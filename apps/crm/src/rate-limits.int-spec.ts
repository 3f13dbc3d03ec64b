import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose, { type Connection } from 'mongoose';
import request from 'supertest';
import { createLogger, listen, loadConfig } from '@ecomm-sync/runtime';
import { CrmAdminClient } from '@ecomm-sync/crm-client';
import { testInfrastructure, uniqueName, waitFor } from '@ecomm-sync/testing';
import { createCrmApp, type CrmAppDeps } from './app';
import { crmConfigSchema, hostedLimitsFromConfig } from './config';
import { CrmStore } from './data-access/crm-store';

/** The lib's index exports the admin client only; its limits type is its setLimits parameter. */
type CrmAccountLimits = NonNullable<Parameters<CrmAdminClient['setLimits']>[1]>;

const ADMIN = 'admin-token';
const T = Date.parse('2024-03-10T12:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LIMIT_HEADERS = [
  'x-hubspot-ratelimit-max',
  'x-hubspot-ratelimit-remaining',
  'x-hubspot-ratelimit-interval-milliseconds',
  'x-hubspot-ratelimit-daily',
  'x-hubspot-ratelimit-daily-remaining',
];

/** A limits body with the hosted defaults and what a case changes. */
const limits = (overrides: Partial<CrmAccountLimits> = {}): CrmAccountLimits => ({
  burstPer10s: 100,
  dailyCap: 250_000,
  timeZone: 'UTC',
  searchPerSecond: 4,
  ...overrides,
});

/** The most answered requests in any 10 consecutive whole seconds of per-second counts. */
const maxIn10ConsecutiveSeconds = (perSecond: { second: number; answered: number }[]) =>
  Math.max(
    0,
    ...perSecond.map(({ second }) =>
      perSecond.filter((entry) => entry.second >= second && entry.second < second + 10).reduce((sum, entry) => sum + entry.answered, 0),
    ),
  );

describe('built-in CRM emulating the hosted limits', () => {
  let connection: Connection;
  let store: CrmStore;
  const servers: Server[] = [];
  let nextPortal = 7_000;

  /** A CRM app on a port of its own; `clock` is the time its limits count by. */
  async function startCrm(hostedLimits?: CrmAppDeps['hostedLimits']) {
    const app = createCrmApp({
      store,
      logger: createLogger('crm-limits-test', 'error'),
      adminToken: ADMIN,
      defaultPipelineLimit: 2,
      bodyLimit: '1mb',
      ready: () => true,
      hostedLimits,
    });
    const server = await listen(app, 0, '127.0.0.1');
    servers.push(server);
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { baseUrl, admin: new CrmAdminClient(baseUrl, ADMIN) };
  }

  /** A new portal's account on that CRM, and a caller of its objects API. */
  async function newPortal(crm: { baseUrl: string; admin: CrmAdminClient }, own?: CrmAccountLimits | null) {
    const portalId = nextPortal++;
    const token = `limits-token-of-portal-${portalId}`;
    await crm.admin.ensureAccount(portalId, token);
    if (own !== undefined) await crm.admin.setLimits(portalId, own);
    const call = (method: 'get' | 'post', path: string) => request(crm.baseUrl)[method](path).set('authorization', `Bearer ${token}`);
    return {
      portalId,
      call,
      read: () => call('get', '/crm/v3/properties/deals'),
      search: () => call('post', '/crm/v3/objects/contacts/search').send({}),
    };
  }

  beforeAll(async () => {
    connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName('crm_limits').replace(/-/g, '_') }).asPromise();
    store = new CrmStore(connection);
    await store.createIndexes();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await connection.dropDatabase();
    await connection.close();
  });

  describe('with a settable clock', () => {
    let now = T;
    let crm: Awaited<ReturnType<typeof startCrm>>;

    beforeAll(async () => {
      crm = await startCrm({ defaults: null, clock: () => now });
    });
    beforeEach(() => {
      now = T;
    });

    it('when the 10-s limit is reached, then 429 TEN_SECONDLY_ROLLING with the exact body, the headers and Retry-After', async () => {
      const portal = await newPortal(crm, limits({ burstPer10s: 3, dailyCap: 1_000 }));
      for (const remaining of ['2', '1', '0']) {
        const passed = await portal.read().expect(200);
        expect(passed.headers).toMatchObject({
          'x-hubspot-ratelimit-max': '3',
          'x-hubspot-ratelimit-remaining': remaining,
          'x-hubspot-ratelimit-interval-milliseconds': '10000',
          'x-hubspot-ratelimit-daily': '1000',
        });
      }
      const refused = await portal.read().expect(429);
      expect(refused.body).toEqual({
        status: 'error',
        message: 'You have reached your ten secondly limit.',
        errorType: 'RATE_LIMIT',
        correlationId: expect.stringMatching(UUID),
        policyName: 'TEN_SECONDLY_ROLLING',
        requestId: expect.any(String),
      });
      expect(refused.headers).toMatchObject({
        'retry-after': '10',
        'x-hubspot-ratelimit-max': '3',
        'x-hubspot-ratelimit-remaining': '0',
        'x-hubspot-ratelimit-interval-milliseconds': '10000',
        'x-hubspot-ratelimit-daily': '1000',
        'x-hubspot-ratelimit-daily-remaining': '997',
      });
    });

    it('when the window rolls past the oldest request, then requests pass again, exactly then', async () => {
      const portal = await newPortal(crm, limits({ burstPer10s: 3 }));
      await portal.read().expect(200); // at T
      now = T + 5_000;
      await portal.read().expect(200);
      await portal.read().expect(200);
      now = T + 9_999;
      expect((await portal.read().expect(429)).headers['retry-after']).toBe('1');
      now = T + 10_000; // the request of T has left the window; those of T + 5 s have not
      await portal.read().expect(200);
      const refused = await portal.read().expect(429);
      expect(refused.headers['retry-after']).toBe('5');
      now = T + 15_000;
      await portal.read().expect(200);
    });

    it('when the daily cap is reached, then 429 DAILY until the admin resets the count or the next reset comes', async () => {
      const portal = await newPortal(crm, limits({ dailyCap: 3, timeZone: 'Europe/Berlin' }));
      for (let i = 0; i < 3; i++) await portal.read().expect(200);
      const refused = await portal.read().expect(429);
      expect(refused.body).toMatchObject({
        status: 'error',
        message: 'You have reached your daily limit.',
        errorType: 'RATE_LIMIT',
        policyName: 'DAILY',
        correlationId: expect.stringMatching(UUID),
      });
      const berlinMidnight = Date.parse('2024-03-10T23:00:00.000Z');
      expect(refused.headers).toMatchObject({
        'retry-after': String((berlinMidnight - T) / 1000),
        'x-hubspot-ratelimit-daily': '3',
        'x-hubspot-ratelimit-daily-remaining': '0',
      });
      expect((await crm.admin.usage(portal.portalId)).daily).toEqual({ used: 3, nextResetAt: berlinMidnight });

      expect(await crm.admin.resetDaily(portal.portalId)).toEqual({ portalId: portal.portalId, dailyUsed: 0, nextResetAt: berlinMidnight });
      for (let i = 0; i < 3; i++) await portal.read().expect(200);
      await portal.read().expect(429);

      const soon = T + 60_000;
      await crm.admin.resetDaily(portal.portalId, soon);
      for (let i = 0; i < 3; i++) await portal.read().expect(200);
      expect((await portal.read().expect(429)).headers['retry-after']).toBe('60');
      now = soon; // the reset the admin set has come; the next one is the account's midnight again
      await portal.read().expect(200);
      expect((await crm.admin.usage(portal.portalId)).daily).toEqual({ used: 1, nextResetAt: berlinMidnight });
    });

    it('when searches exceed their per-second cap, then 429 SECONDLY for searches only, until the second has passed', async () => {
      const portal = await newPortal(crm, limits({ searchPerSecond: 2 }));
      await portal.search().expect(200);
      now = T + 400;
      await portal.search().expect(200);
      const refused = await portal.search().expect(429);
      expect(refused.body).toMatchObject({
        message: 'You have reached your secondly limit.',
        errorType: 'RATE_LIMIT',
        policyName: 'SECONDLY',
        correlationId: expect.stringMatching(UUID),
      });
      expect(refused.headers['retry-after']).toBe('1');
      await portal.read().expect(200);
      await portal.call('post', '/crm/v3/objects/deals/search').send({}).expect(429);
      now = T + 1_000; // the first search has left its second
      await portal.search().expect(200);
      await portal.search().expect(429);
    });

    it('when batch inputs carry the invalid marker, then 207 names each by its objectWriteTraceId and the others are applied', async () => {
      const portal = await newPortal(crm, limits({ invalidMarker: '__invalid__' }));
      const created = await portal
        .call('post', '/crm/v3/objects/contacts/batch/create')
        .send({
          inputs: [
            { properties: { email: 'good-1@example.com' }, objectWriteTraceId: 'trace-1' },
            { properties: { email: 'bad@example.com', firstname: '__invalid__' }, objectWriteTraceId: 'trace-2' },
            { properties: { email: 'good-3@example.com' } },
          ],
        })
        .expect(207);
      expect(created.body).toEqual({
        status: 'COMPLETE',
        results: [
          expect.objectContaining({ properties: { email: 'good-1@example.com' } }),
          expect.objectContaining({ properties: { email: 'good-3@example.com' } }),
        ],
        numErrors: 1,
        errors: [
          {
            status: 'error',
            category: 'VALIDATION_ERROR',
            message: expect.stringContaining('"name":"firstname"'),
            context: { objectWriteTraceId: ['trace-2'] },
          },
        ],
        startedAt: expect.any(String),
        completedAt: expect.any(String),
      });
      const found = await portal.call('post', '/crm/v3/objects/contacts/search').send({}).expect(200);
      expect(found.body.results.map((r: { properties: { email: string } }) => r.properties.email).sort()).toEqual(['good-1@example.com', 'good-3@example.com']);

      const [first] = created.body.results;
      const updated = await portal
        .call('post', '/crm/v3/objects/contacts/batch/update')
        .send({ inputs: [{ id: first.id, properties: { lastname: '__invalid__' }, objectWriteTraceId: 'trace-u' }] })
        .expect(207);
      expect(updated.body).toMatchObject({ status: 'COMPLETE', results: [], numErrors: 1, errors: [{ context: { objectWriteTraceId: ['trace-u'] } }] });

      await portal
        .call('post', '/crm/v3/properties/contacts')
        .send({ name: 'sync_key', label: 'Sync key', type: 'string', fieldType: 'text', groupName: 'contactinformation', hasUniqueValue: true })
        .expect(201);
      const upserted = await portal
        .call('post', '/crm/v3/objects/contacts/batch/upsert')
        .send({
          inputs: [
            { id: 'k-1', idProperty: 'sync_key', properties: { firstname: 'Kept' } },
            { id: 'k-2', idProperty: 'sync_key', properties: { firstname: '__invalid__' } },
          ],
        })
        .expect(207);
      expect(upserted.body).toMatchObject({
        results: [{ properties: expect.objectContaining({ sync_key: 'k-1', firstname: 'Kept' }) }],
        numErrors: 1,
        errors: [{ context: {} }],
      });

      const clean = await portal
        .call('post', '/crm/v3/objects/contacts/batch/create')
        .send({ inputs: [{ properties: { email: 'plain@example.com' } }] })
        .expect(201);
      expect(clean.body).toEqual({
        status: 'COMPLETE',
        results: [expect.objectContaining({ properties: { email: 'plain@example.com' } })],
        startedAt: expect.any(String),
        completedAt: expect.any(String),
      });
    });

    it('when requests are answered and refused, then usage counts them per second and the exact 10-s peak', async () => {
      const portal = await newPortal(crm, limits({ burstPer10s: 5 }));
      for (let i = 0; i < 7; i++) await portal.read(); // 5 answered, 2 refused
      now = T + 4_500;
      await portal.read().expect(429);
      now = T + 10_000;
      for (let i = 0; i < 5; i++) await portal.read().expect(200);
      const usage = await crm.admin.usage(portal.portalId);
      expect(usage).toEqual({
        portalId: portal.portalId,
        perSecond: [
          { second: T / 1000, answered: 7, limited: 2 },
          { second: T / 1000 + 4, answered: 1, limited: 1 },
          { second: T / 1000 + 10, answered: 5, limited: 0 },
        ],
        maxIn10s: 8,
        totals: { answered: 13, limited: 3 },
        daily: { used: 10, nextResetAt: Date.parse('2024-03-11T00:00:00.000Z') },
      });
      // What a test of the sync service proves with it: no 10-s window held more than the budget.
      expect(maxIn10ConsecutiveSeconds(usage.perSecond)).toBeLessThanOrEqual(usage.maxIn10s);
      expect(usage.perSecond.filter((entry) => entry.second >= T / 1000 + 10).every((entry) => entry.limited === 0)).toBe(true);
    });

    it('when an account has no limits, then it gets no rate-limit headers and no usage', async () => {
      const portal = await newPortal(crm);
      const answer = await portal.read().expect(200);
      for (const name of LIMIT_HEADERS) expect(answer.headers[name]).toBeUndefined();
      expect(await crm.admin.getLimits(portal.portalId)).toEqual({ portalId: portal.portalId, limits: null, source: 'environment' });
      expect(await crm.admin.usage(portal.portalId)).toMatchObject({ perSecond: [], maxIn10s: 0, totals: { answered: 0, limited: 0 } });
    });
  });

  describe('with the environment defaults and the real clock', () => {
    let crm: Awaited<ReturnType<typeof startCrm>>;

    beforeAll(async () => {
      crm = await startCrm({ defaults: { ...limits({ burstPer10s: 1 }), intervalMs: 300 } });
    });

    it('when an account has none of its own, then the environment limits apply; null switches them off', async () => {
      const portal = await newPortal(crm);
      const first = await portal.read().expect(200);
      expect(first.headers).toMatchObject({ 'x-hubspot-ratelimit-max': '1', 'x-hubspot-ratelimit-interval-milliseconds': '300' });
      expect(await crm.admin.getLimits(portal.portalId)).toEqual({
        portalId: portal.portalId,
        limits: limits({ burstPer10s: 1, intervalMs: 300 }),
        source: 'environment',
      });

      expect(await crm.admin.setLimits(portal.portalId, null)).toEqual({ portalId: portal.portalId, limits: null, source: 'account' });
      for (let i = 0; i < 3; i++) {
        const answer = await portal.read().expect(200);
        for (const name of LIMIT_HEADERS) expect(answer.headers[name]).toBeUndefined();
      }
    });

    it('when the window is short, then a refused request passes once it has rolled (polled with a deadline)', async () => {
      const portal = await newPortal(crm);
      await portal.read().expect(200);
      await portal.read().expect(429);
      await waitFor(async () => (await portal.read()).status === 200, {
        timeoutMs: 5_000,
        intervalMs: 50,
        message: 'a request to pass after the 300 ms window rolled',
      });
    });
  });

  describe('off by default', () => {
    it('when the environment sets no CRM_* limit key, then there are no limits', () => {
      expect(hostedLimitsFromConfig(loadConfig(crmConfigSchema, { ADMIN_TOKEN: 'x' }))).toBeNull();
      expect(
        hostedLimitsFromConfig(loadConfig(crmConfigSchema, { ADMIN_TOKEN: 'x', CRM_EMULATE_HOSTED_LIMITS: 'true', CRM_LIMIT_INVALID_MARKER: '__invalid__' })),
      ).toEqual({
        burstPer10s: 100,
        intervalMs: 10_000,
        dailyCap: 250_000,
        timeZone: 'UTC',
        searchPerSecond: 4,
        invalidMarker: '__invalid__',
      });
      expect(() =>
        hostedLimitsFromConfig(loadConfig(crmConfigSchema, { ADMIN_TOKEN: 'x', CRM_EMULATE_HOSTED_LIMITS: 'true', CRM_LIMIT_TIME_ZONE: 'Mars/Base' })),
      ).toThrow(/CRM_LIMIT_TIME_ZONE/);
      expect(() =>
        hostedLimitsFromConfig(loadConfig(crmConfigSchema, { ADMIN_TOKEN: 'x', CRM_EMULATE_HOSTED_LIMITS: 'true', CRM_LIMIT_BURST_PER_10S: '0' })),
      ).toThrow(/CRM_LIMIT_BURST_PER_10S must be at least 1/);
    });

    it('when the app is started without limits, then more requests than any tier allows pass without rate-limit headers, and markers are plain values', async () => {
      const crm = await startCrm();
      const portal = await newPortal(crm);
      const answers = [];
      for (let i = 0; i < 110; i++) answers.push(await portal.read());
      expect(answers.map((answer) => answer.status)).toEqual(Array(110).fill(200));
      for (const name of LIMIT_HEADERS) expect(answers.some((answer) => answer.headers[name] !== undefined)).toBe(false);
      await portal
        .call('post', '/crm/v3/objects/contacts/batch/create')
        .send({ inputs: [{ properties: { firstname: '__invalid__' } }] })
        .expect(201);
    });
  });

  describe('input limits', () => {
    let portal: Awaited<ReturnType<typeof newPortal>>;

    beforeAll(async () => {
      portal = await newPortal(await startCrm());
    });

    it.each([
      ['a batch create', '/crm/v3/objects/contacts/batch/create', (i: number) => ({ properties: { firstname: `n${i}` } })],
      ['a batch update', '/crm/v3/objects/contacts/batch/update', (i: number) => ({ id: String(i + 1), properties: {} })],
      ['a batch upsert', '/crm/v3/objects/contacts/batch/upsert', (i: number) => ({ id: `k${i}`, idProperty: 'email', properties: {} })],
      ['a batch read', '/crm/v3/objects/contacts/batch/read', (i: number) => ({ id: String(i + 1) })],
      [
        'an association batch',
        '/crm/v4/associations/deals/contacts/batch/associate/default',
        (i: number) => ({ from: { id: String(i + 1) }, to: { id: '1' } }),
      ],
    ])('when %s has 101 inputs, then 400 says at most 100', async (_case, path, input) => {
      const refused = await portal
        .call('post', path)
        .send({ inputs: Array.from({ length: 101 }, (_, i) => input(i)) })
        .expect(400);
      expect(refused.body).toMatchObject({ status: 'error', message: 'body/inputs must hold 1 to 100 inputs, got 101' });
    });
  });

  describe('admin API of the limits', () => {
    let crm: Awaited<ReturnType<typeof startCrm>>;
    let portalId: number;

    beforeAll(async () => {
      crm = await startCrm({ defaults: null });
      portalId = (await newPortal(crm)).portalId;
    });

    const admin = (method: 'get' | 'put' | 'post', path: string, token: string | null = ADMIN) => {
      const call = request(crm.baseUrl)[method](path);
      return token === null ? call : call.set('authorization', `Bearer ${token}`);
    };

    it.each([
      ['put', '/limits'],
      ['get', '/limits'],
      ['post', '/limits/reset-daily'],
      ['get', '/usage'],
    ] as const)('when %s ...%s comes without the admin token or with another, then 401', async (method, path) => {
      await admin(method, `/crm/admin/v1/accounts/${portalId}${path}`, null).send(limits()).expect(401);
      await admin(method, `/crm/admin/v1/accounts/${portalId}${path}`, 'not-the-admin-token').send(limits()).expect(401);
    });

    it.each([
      ['an unknown field', { ...limits(), tier: 'pro' }, 'body has an unknown field "tier"'],
      ['a missing field', { burstPer10s: 100, dailyCap: 1, timeZone: 'UTC' }, 'body is missing the required field "searchPerSecond"'],
      ['a zero burst', limits({ burstPer10s: 0 }), 'body/burstPer10s must be >= 1'],
      ['a fractional cap', limits({ dailyCap: 1.5 }), 'body/dailyCap must be integer'],
      ['a window under 100 ms', limits({ intervalMs: 10 }), 'body/intervalMs must be >= 100'],
      ['an unknown time zone', limits({ timeZone: 'Mars/Base' }), 'body/timeZone must be an IANA time zone such as UTC or Europe/Berlin, got "Mars/Base"'],
      ['an empty marker', limits({ invalidMarker: '' }), 'body/invalidMarker must NOT have fewer than 1 characters'],
      ['a string', 'fast', 'body must be object'],
    ])('when PUT limits has %s, then 400 says what is wrong and nothing changes', async (_case, body, message) => {
      const refused = await admin('put', `/crm/admin/v1/accounts/${portalId}/limits`)
        .set('content-type', 'application/json')
        .send(JSON.stringify(body))
        .expect(400);
      expect(refused.body).toEqual({ status: 'error', message, requestId: expect.any(String) });
      expect(await crm.admin.getLimits(portalId)).toEqual({ portalId, limits: null, source: 'environment' });
    });

    it('when PUT limits has no body, then 400 names the first missing field', async () => {
      const refused = await admin('put', `/crm/admin/v1/accounts/${portalId}/limits`).expect(400);
      expect(refused.body.message).toMatch(
        /^body is missing the required field "burstPer10s"$|^body must be the limits \{burstPer10s, dailyCap, timeZone, searchPerSecond, intervalMs\?, invalidMarker\?\} or null/,
      );
    });

    it.each([
      ['an unknown field', { nextResetAt: T + 1, now: true }, 'body has an unknown field "now"'],
      ['a time that is not epoch ms', { nextResetAt: '2024-03-11' }, 'body/nextResetAt must be epoch milliseconds'],
      ['a time in the past', { nextResetAt: 1_000 }, 'body/nextResetAt must be in the future (epoch milliseconds)'],
    ])('when reset-daily has %s, then 400 says what is wrong', async (_case, body, message) => {
      const refused = await admin('post', `/crm/admin/v1/accounts/${portalId}/limits/reset-daily`).send(body).expect(400);
      expect(refused.body.message).toBe(message);
    });

    it.each([
      ['put', '/limits'],
      ['get', '/limits'],
      ['post', '/limits/reset-daily'],
      ['get', '/usage'],
    ] as const)('when %s ...%s names a portal without an account, then 404', async (method, path) => {
      const refused = await admin(method, `/crm/admin/v1/accounts/999999${path}`)
        .send(method === 'put' ? limits() : {})
        .expect(404);
      expect(refused.body.message).toMatch(/No CRM account for portal 999999/);
    });

    it('when limits are set, then GET answers them with the hosted window filled in', async () => {
      const set = await crm.admin.setLimits(
        portalId,
        limits({ burstPer10s: 190, dailyCap: 625_000, timeZone: 'America/New_York', invalidMarker: '__invalid__' }),
      );
      const expected = {
        portalId,
        limits: { ...limits({ burstPer10s: 190, dailyCap: 625_000, timeZone: 'America/New_York', invalidMarker: '__invalid__' }), intervalMs: 10_000 },
        source: 'account',
      };
      expect(set).toEqual(expected);
      expect(await crm.admin.getLimits(portalId)).toEqual(expected);
      await crm.admin.setLimits(portalId, null);
    });
  });
});
