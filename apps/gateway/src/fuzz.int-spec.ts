import fc from 'fast-check';
import type { Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { assertEndpointSurvivesFuzz, fuzzRuns, fuzzSegment, type FuzzTarget, seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

type Credential = 'portal' | 'oauth' | 'admin' | 'none';
type Endpoint = Pick<FuzzTarget, 'method' | 'path' | 'fields'> & { credential: Credential; reachesCrm?: boolean };

const PORTAL = 9101;
/** The portal the admin paths name (rotated, disabled, re-pointed by fuzzed bodies): not the one fuzzed with its key. */
const ADMIN_PORTAL = 9102;
const v1 = '/extensions/ecomm/v1';
const v2 = '/extensions/ecomm/v2';

/** Every write endpoint of the gateway, with the credential it takes and the fields its body has. */
const ENDPOINTS: Endpoint[] = [
  {
    method: 'PUT',
    path: `${v1}/sync-messages/:seg`,
    credential: 'portal',
    fields: ['integratorObjectId', 'action', 'changeOccurredTimestamp', 'propertyNameToValues'],
  },
  {
    method: 'PUT',
    path: `${v2}/sync/messages`,
    credential: 'portal',
    fields: ['storeId', 'objectType', 'messages', 'externalObjectId', 'action', 'changedAt', 'properties', 'associations'],
  },
  {
    method: 'PUT',
    path: `${v1}/settings`,
    credential: 'portal',
    fields: ['enabled', 'importOnInstall', 'contactSyncSettings', 'dealSyncSettings', 'properties', 'propertyName', 'targetCrmProperty', 'dataType'],
  },
  {
    method: 'PUT',
    path: `${v2}/settings`,
    credential: 'portal',
    fields: ['enabled', 'importOnInstall', 'webhookUri', 'mappings', 'CONTACT', 'properties', 'externalPropertyName', 'crmPropertyName', 'dataType'],
  },
  { method: 'DELETE', path: `${v1}/settings`, credential: 'portal' },
  { method: 'DELETE', path: `${v2}/settings`, credential: 'portal' },
  { method: 'POST', path: `${v1}/settings/reapply`, credential: 'portal' },
  { method: 'POST', path: `${v2}/settings/reapply`, credential: 'portal' },
  { method: 'PUT', path: `${v1}/import-settings`, credential: 'portal', fields: ['importTriggerUri'] },
  { method: 'PUT', path: `${v2}/stores`, credential: 'portal', fields: ['id', 'label', 'adminUri'], reachesCrm: true },
  { method: 'DELETE', path: `${v2}/stores/:seg`, credential: 'portal' },
  { method: 'POST', path: `${v1}/installs`, credential: 'portal', reachesCrm: true },
  { method: 'POST', path: `${v1}/installs/uninstall`, credential: 'portal' },
  { method: 'POST', path: `${v1}/imports`, credential: 'oauth', fields: ['appId'] },
  { method: 'POST', path: `${v2}/imports`, credential: 'oauth', fields: ['storeId'] },
  {
    method: 'POST',
    path: `${v2}/imports/page`,
    credential: 'oauth',
    fields: ['importStartedAt', 'pageNumber', 'storeId', 'objectType', 'messages', 'externalObjectId', 'properties', 'associations'],
  },
  { method: 'POST', path: `${v2}/imports/end`, credential: 'oauth', fields: ['importStartedAt', 'storeId', 'objectType', 'pageCount', 'itemCount'] },
  {
    method: 'PUT',
    path: `${v1}/import-pages/:seg/:seg/:seg`,
    credential: 'oauth',
    fields: ['integratorObjectId', 'propertyNameToValues', 'pageCount', 'itemCount'],
  },
  { method: 'PUT', path: `${v1}/import-pages/:seg/:seg/end`, credential: 'oauth', fields: ['pageCount', 'itemCount'] },
  {
    method: 'PUT',
    path: '/import-pages/:seg/:seg/:seg',
    credential: 'oauth',
    fields: ['integratorObjectId', 'propertyNameToValues', 'pageCount', 'itemCount'],
  },
  {
    method: 'POST',
    path: '/oauth/v1/token',
    credential: 'none',
    fields: ['grant_type', 'client_id', 'client_secret', 'refresh_token', 'redirect_uri', 'code'],
  },
  { method: 'POST', path: '/admin/v1/portals', credential: 'admin', fields: ['name', 'pipelineLimit', 'portalId'], reachesCrm: true },
  { method: 'PATCH', path: '/admin/v1/portals/:seg', credential: 'admin', fields: ['active', 'pipelineLimit'], reachesCrm: true },
  { method: 'POST', path: '/admin/v1/portals/:seg/enable', credential: 'admin' },
  { method: 'POST', path: '/admin/v1/portals/:seg/disable', credential: 'admin' },
  {
    method: 'PUT',
    path: '/admin/v1/portals/:seg/crm-connection',
    credential: 'admin',
    fields: ['kind', 'baseUrl', 'auth', 'type', 'token', 'clientId', 'clientSecret', 'refreshToken', 'limits', 'tier'],
  },
  { method: 'POST', path: '/admin/v1/portals/:seg/api-key', credential: 'admin' },
  { method: 'POST', path: '/admin/v1/portals/:seg/private-apps', credential: 'admin', fields: ['name'] },
  { method: 'POST', path: '/admin/v1/developers', credential: 'admin', fields: ['name'] },
  { method: 'POST', path: '/admin/v1/developers/:seg/api-key', credential: 'admin' },
  { method: 'POST', path: '/admin/v1/apps', credential: 'admin', fields: ['developerId', 'name'] },
  { method: 'POST', path: '/admin/v1/apps/:seg/client-secret', credential: 'admin' },
  { method: 'POST', path: '/admin/v1/installs', credential: 'admin', fields: ['portalId', 'appId'] },
  { method: 'DELETE', path: '/admin/v1/installs/:seg/:seg', credential: 'admin' },
  { method: 'DELETE', path: '/admin/v1/credentials/:seg', credential: 'admin' },
];

const BOUNDED_BODIES = 24;

/**
 * The gateway under fuzzed requests (issue 17): every write endpoint, with the credential it takes,
 * bodies of every shape, odd path segments and content types, several requests at a time. Never a
 * 5xx, but the 502 of an endpoint whose CRM is away (this fixture has no CRM, and answers that at
 * once), and never a hang. A bounded run here; `npm run fuzz` runs it long.
 */
describe('gateway under fuzzed requests (real MongoDB and RabbitMQ)', () => {
  let fixture: GatewayFixture;
  let server: Server;
  let baseUrl: string;
  let segment: fc.Arbitrary<string>;
  const portalKey = 'pk-fuzz-portal';
  let accessToken: string;

  beforeAll(async () => {
    // No CRM here: what needs one answers 502 at once rather than after retries (crmMaxWaitMs 0);
    // tokens outlive a long run.
    fixture = await startGatewayFixture('test-fuzz', () => ({ crmMaxWaitMs: 0, oauth: { accessTokenTtlSeconds: 24 * 3600 } }));
    await seedPortal(fixture.database.repositories, { portalId: PORTAL, apiKey: portalKey });
    await seedPortal(fixture.database.repositories, { portalId: ADMIN_PORTAL, apiKey: 'pk-fuzz-admin-portal' });
    const admin = (path: string, body: object) => request(fixture.app).post(path).set('authorization', 'Bearer admin').send(body).expect(201);
    const developer = (await admin('/admin/v1/developers', { name: 'Fuzz developer' })).body;
    const { appId } = (await admin('/admin/v1/apps', { developerId: developer.developerId, name: 'Fuzz app' })).body;
    accessToken = (await admin('/admin/v1/installs', { portalId: PORTAL, appId })).body.accessToken;
    // Imports of the application reach their checks past "no import address".
    await request(fixture.app)
      .put(`${v1}/import-settings?hapikey=${developer.apiKey}&appId=${appId}`)
      .send({ importTriggerUri: 'https://shop.example.com/import' })
      .expect(200);
    segment = fc.oneof(fuzzSegment, fc.constantFrom(String(ADMIN_PORTAL), appId, String(developer.developerId), '1700000000000', 'LINE_ITEM', 'end'));
    server = fixture.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await fixture?.close();
  });

  const targetOf = ({ method, path, fields, credential, reachesCrm }: Endpoint): FuzzTarget => ({
    method,
    path,
    fields,
    query: credential === 'portal' ? `hapikey=${portalKey}` : undefined,
    headers: credential === 'admin' ? { authorization: 'Bearer admin' } : credential === 'oauth' ? { authorization: `Bearer ${accessToken}` } : {},
    allowed5xx: reachesCrm ? [502] : [],
    checkError: (body) => expect(body).toMatchObject({ status: 'error', message: expect.any(String), requestId: expect.any(String) }),
  });

  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    'when %s gets fuzzed bodies and paths, then it answers each with the error model and never a 5xx',
    async (_name, endpoint) => {
      await assertEndpointSurvivesFuzz(baseUrl, targetOf(endpoint), { bodies: fuzzRuns(BOUNDED_BODIES), segment });
    },
    60_000 + fuzzRuns(BOUNDED_BODIES) * 100,
  );

  /**
   * Slow inputs (issue 26, item 2): the longest values, deep nesting and many properties, each
   * within the production body limit. Each must be answered without holding the event loop (the
   * process's only thread) for long. What the code can promise on any machine is work that grows
   * in step with the input: each input is also sent at a quarter of its size, and the full one may
   * cost at most LINEAR_FACTOR times the quarter (linear work: 4×; a backtracking expression:
   * 16× and more, by seconds). On an idle machine every input is answered well under 50 ms, which
   * passes as well (and `npm run fuzz` holds that bound); on a loaded one the time the machine does
   * not run this process at all fails nothing. Each figure is the least of a few tries.
   */
  describe('slow inputs', () => {
    const BOUND_MS = 50;
    const TRIES = 5;
    const LINEAR_FACTOR = 8;
    const v2Message = (properties: object) => ({ externalObjectId: 'slow', action: 'UPSERT', changedAt: 1, properties });
    const nested = (depth: number) => {
      let deep: unknown = 'x';
      for (let i = 0; i < depth; i++) deep = [deep];
      return deep;
    };
    /** Each input at a scale (1: as named, 0.25: a quarter of it), with the status it is answered. */
    const INPUTS: [string, string, (scale: number) => { body: object | unknown[]; status: number }][] = [
      [
        'the longest value in every property of a message',
        `${v2}/sync/messages`,
        (scale) => {
          const value = `${'1'.repeat(65_535 * scale)}x`;
          const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, value]));
          return { body: { storeId: 'slow', objectType: 'PRODUCT', messages: [v2Message(properties)] }, status: 204 };
        },
      ],
      [
        'a value one character too long',
        `${v1}/sync-messages/PRODUCT`,
        (scale) => ({
          // The quarter is a long value that fits: answered 204, after the same checks.
          body: [{ integratorObjectId: 'slow', action: 'UPSERT', changeOccurredTimestamp: 1, propertyNameToValues: { p: `${'1'.repeat(65_536 * scale)}1` } }],
          status: scale === 1 ? 400 : 204,
        }),
      ],
      [
        '1,000 properties with the longest names',
        `${v2}/sync/messages`,
        (scale) => {
          const properties = Object.fromEntries(Array.from({ length: 1000 * scale }, (_, i) => [`p${i}`.padEnd(256, '_'), '1'.repeat(100)]));
          return { body: { storeId: 'slow', objectType: 'PRODUCT', messages: [v2Message(properties)] }, status: 204 };
        },
      ],
      [
        'a value nested 5,000 deep',
        `${v2}/sync/messages`,
        (scale) => ({ body: { storeId: 'slow', objectType: 'PRODUCT', messages: [v2Message({ p: nested(5_000 * scale) })] }, status: 400 }),
      ],
      [
        'a change time of the longest date-time',
        `${v1}/sync-messages/PRODUCT`,
        (scale) => ({
          body: Array.from({ length: 200 * scale }, (_, i) => ({
            integratorObjectId: `s${i}`,
            action: 'UPSERT',
            changeOccurredTimestamp: `2024-01-01T${'1'.repeat(53)}`,
            propertyNameToValues: {},
          })),
          status: 400,
        }),
      ],
    ];

    /**
     * The least, over a few tries, of how long the request held the event loop at most: its longest
     * event-loop delay, or the CPU time the process spent while it was answered when that is less.
     * Both bound the longest synchronous block from above; the delay also counts the time the
     * machine did not run this process, the CPU time does not.
     */
    const leastDelayMs = async (send: () => Promise<{ status: number }>, status: number): Promise<number> => {
      let least = Infinity;
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        const cpuBefore = process.cpuUsage();
        const response = await send();
        const cpu = process.cpuUsage(cpuBefore);
        delay.disable();
        expect(response.status).toBe(status);
        least = Math.min(least, delay.max / 1e6, (cpu.user + cpu.system) / 1000);
      }
      return least;
    };

    beforeAll(() => fixture.database.repositories.stores.upsert({ portalId: PORTAL, appId: null }, { id: 'slow', label: 'Slow inputs' }));

    it.each(INPUTS)('when a request carries %s, then it is answered, and its work grows in step with it (or stays under 50 ms)', async (_what, path, make) => {
      const app = await fixture.gateway({ bodyLimit: '4mb' });
      const send = (scale: number) => {
        const { body, status } = make(scale);
        return leastDelayMs(() => request(app).put(`${path}?hapikey=${portalKey}`).send(body), status);
      };
      const quarter = await send(0.25);
      const full = await send(1);
      expect(full).toBeLessThan(Math.max(BOUND_MS, LINEAR_FACTOR * quarter));
    });
  });
});
