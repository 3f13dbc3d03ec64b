import request from 'supertest';
import type { Tenant } from '@ecomm-sync/contracts';
import type { Database } from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import { gatewayCredentials, startWebhookReceiver, type WebhookReceiver } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const OWN = 8301;
const FOREIGN = 8302;
const UNINSTALLED = 8303;
const UNKNOWN = 8399;

type Portal = 'own' | 'foreign' | 'uninstalled' | 'unknown';
type Role = 'portal key' | 'private app' | 'OAuth token' | 'developer key';
const PORTALS: Record<Portal, number> = { own: OWN, foreign: FOREIGN, uninstalled: UNINSTALLED, unknown: UNKNOWN };

/**
 * Issue 26, item 1: every console endpoint that takes a `portalId`, with every role and every kind
 * of portal. A customer credential is refused any portal but its own (403); an integrator's
 * application any portal it is not installed in now (404, the same words whether the portal
 * exists, uninstalled it or never had it), before any of that portal's data or CRM is read.
 */
describe('the console, for each role and each portal', () => {
  let fixture: GatewayFixture;
  let database: Database;
  let crm: WebhookReceiver;
  const c = {} as {
    portalKey: string;
    privateApp: string;
    developerKey: string;
    appId: string;
    otherAppId: string;
    accessToken: string;
  };

  beforeAll(async () => {
    // The portals' CRM: a real HTTP server that counts what reaches it and refuses it.
    crm = await startWebhookReceiver(
      () => 'unused',
      () => ({ status: 400, json: { status: 'error', message: 'refused by the test', correlationId: 'c-1', category: 'VALIDATION_ERROR' } }),
    );
    fixture = await startGatewayFixture('test-console-tenancy');
    fixture.app = await fixture.gateway({ crmBaseUrl: crm.url });
    database = fixture.database;
    const tenantCredentials = gatewayCredentials(fixture.app, database.repositories);
    c.portalKey = 'pk-tenancy-own';
    for (const portalId of [OWN, FOREIGN, UNINSTALLED]) await tenantCredentials.portal(portalId, portalId === OWN ? c.portalKey : `pk-tenancy-${portalId}`);
    c.privateApp = (await tenantCredentials.privateApp(OWN, 'reporting')).token;
    const developer = await tenantCredentials.developer('Integrator');
    const otherDeveloper = await tenantCredentials.developer('Another');
    c.developerKey = developer.apiKey;
    c.appId = (await tenantCredentials.app(developer.developerId, 'Connector')).appId;
    c.otherAppId = (await tenantCredentials.app(otherDeveloper.developerId, 'Other')).appId;
    c.accessToken = (await tenantCredentials.install(OWN, c.appId)).accessToken;
    await tenantCredentials.install(FOREIGN, c.otherAppId);
    await tenantCredentials.install(UNINSTALLED, c.appId);

    // The portal's direct tenant, the application's tenants and a foreign one: an object and an open error each.
    const tenants: Tenant[] = [
      { portalId: OWN, appId: null },
      { portalId: OWN, appId: c.appId },
      { portalId: UNINSTALLED, appId: c.appId },
      { portalId: FOREIGN, appId: c.otherAppId },
    ];
    for (const tenant of tenants) {
      const scope = { tenant, storeId: 'web', objectType: 'CONTACT' as const };
      await database.repositories.stores.upsert(tenant, { id: 'web', label: `Web ${tenant.portalId}` });
      await database.repositories.objectStates.insertNew(scope, [{ externalObjectId: `c-${tenant.portalId}`, state: emptyObjectState() }]);
      await database.repositories.syncErrors.record(scope, [
        { externalObjectId: `c-${tenant.portalId}`, rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS', details: 'x', changedAt: 1, erroredAt: 1 },
      ]);
    }
    await tenantCredentials.uninstall(UNINSTALLED, c.appId);
  });

  afterAll(async () => {
    await fixture.close();
    await crm.close();
  });

  function call(role: Role, method: 'get' | 'post', path: string, portalId: number) {
    const query = new URLSearchParams({ portalId: String(portalId) });
    if (role === 'portal key') query.set('hapikey', c.portalKey);
    if (role === 'developer key') {
      query.set('hapikey', c.developerKey);
      query.set('appId', c.appId);
    }
    const sent = request(fixture.app)[method](`${path}${path.includes('?') ? '&' : '?'}${query}`);
    if (role === 'private app') return sent.set('authorization', `Bearer ${c.privateApp}`);
    if (role === 'OAuth token') return sent.set('authorization', `Bearer ${c.accessToken}`);
    return sent;
  }

  const v2Settings = { enabled: false, mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email' }] } } };
  const dryRun = { settings: v2Settings, storeId: 'web', objectType: 'CONTACT', message: { externalObjectId: 'typed', properties: { mail: 'a@b.co' } } };
  // [name, method, path, body, status for the own portal, whether that call reads the portal's CRM]
  const ENDPOINTS: [string, 'get' | 'post', string, object | undefined, number, boolean][] = [
    ['session', 'get', '/console/api/v1/session', undefined, 200, false],
    ['installs', 'get', '/console/api/v1/installs', undefined, 200, false],
    ['overview', 'get', '/console/api/v1/overview', undefined, 200, false],
    ['errors', 'get', '/console/api/v1/errors', undefined, 200, false],
    ['retry of an error type', 'post', '/console/api/v1/errors/retry', { errorType: 'INVALID_EMAIL_ADDRESS' }, 202, false],
    ['object inspector', 'get', `/console/api/v1/objects?storeId=web&objectType=CONTACT&externalObjectId=c-${OWN}`, undefined, 200, false],
    [
      'CRM exchanges of an object',
      'get',
      `/console/api/v1/objects/crm-exchanges?storeId=web&objectType=CONTACT&externalObjectId=c-${OWN}`,
      undefined,
      200,
      false,
    ],
    ['settings check', 'post', '/console/api/v1/mappings/validate', v2Settings, 200, false],
    ['CRM properties', 'get', '/console/api/v1/mappings/crm-properties?objectType=CONTACT', undefined, 502, true],
    ['dry run', 'post', '/console/api/v1/mappings/dry-run', dryRun, 502, true],
    ['report', 'get', '/console/api/v1/report', undefined, 200, false],
    ['activity', 'get', '/console/api/v1/activity', undefined, 200, false],
    ['imports', 'get', '/console/api/v1/imports', undefined, 200, false],
    ['alert rules', 'get', '/console/api/v1/alerts', undefined, 200, false],
    ['a new alert rule', 'post', '/console/api/v1/alerts/rules', { name: 'Any error', condition: { kind: 'import-failed' } }, 201, false],
  ];
  const ROLES: Role[] = ['portal key', 'private app', 'OAuth token', 'developer key'];
  const CASES = ENDPOINTS.flatMap(([name, method, path, body, ownStatus, readsCrm]) =>
    ROLES.flatMap((role) =>
      (Object.keys(PORTALS) as Portal[]).map((portal) => {
        const status = portal === 'own' ? ownStatus : role === 'developer key' ? 404 : 403;
        return [name, role, portal, status, { method, path, body, readsCrm }] as const;
      }),
    ),
  );

  it.each(CASES)('when %s is asked with a %s for the %s portal, then it answers %i', async (_name, role, portal, status, { method, path, body, readsCrm }) => {
    const before = crm.received.length;
    const sent = call(role, method, path, PORTALS[portal]);
    const response = await (body ? sent.send(body) : sent);
    expect(response.status).toBe(status);
    if (status >= 400) expect(response.body).toEqual({ status: 'error', message: expect.any(String), requestId: expect.any(String) });
    // Only a call that passed the tenant check reaches a CRM (and spends its budget).
    expect(crm.received.length > before).toBe(readsCrm && portal === 'own');
    if (role === 'developer key' && portal !== 'own')
      expect(response.body.message).toBe(`Application ${c.appId} is not installed in portal ${PORTALS[portal]}; pick one of the portals listed under installs`);
  });

  const asIntegrator = (path: string) => request(fixture.app).get(`${path}${path.includes('?') ? '&' : '?'}hapikey=${c.developerKey}&appId=${c.appId}`);

  it('when an integrator reads without a portal, then portals that uninstalled the application are not read', async () => {
    const errors = (await asIntegrator('/console/api/v1/errors').expect(200)).body.results;
    expect(errors.map((error: { portalId: number }) => error.portalId)).toEqual([OWN]);
    const overview = (await asIntegrator('/console/api/v1/overview').expect(200)).body.stores;
    expect([...new Set(overview.map((store: { portalId: number }) => store.portalId))]).toEqual([OWN]);
    const installs = (await asIntegrator('/console/api/v1/installs').expect(200)).body.results;
    expect(installs.map((install: { portalId: number }) => install.portalId)).toEqual([OWN]);
  });

  it('when an integrator asks for the report without a portal, then it is told to name one, and no CRM is read', async () => {
    const before = crm.received.length;
    const answer = await asIntegrator('/console/api/v1/report').expect(400);
    expect(answer.body.message).toMatch(/^portalId is required with a developer API key: the report reads one portal’s CRM at a time/);
    expect(crm.received.length).toBe(before);
  });

  it.each([
    ['direct', () => null],
    ['the application', () => c.appId],
  ])('when a portal key lists errors with owner=%s, then only that owner of the portal is listed', async (_name, ownerOf) => {
    const appId = ownerOf();
    const owner = appId ?? 'direct';
    const errors = (await request(fixture.app).get(`/console/api/v1/errors?hapikey=${c.portalKey}&storeId=web&owner=${owner}`).expect(200)).body.results;
    expect(errors.map((error: { portalId: number; appId: string | null }) => [error.portalId, error.appId])).toEqual([[OWN, appId]]);
  });

  it('when an OAuth token lists errors with owner=direct, then its own scope is kept', async () => {
    const errors = (await call('OAuth token', 'get', '/console/api/v1/errors?owner=direct', OWN).expect(200)).body.results;
    expect(errors.map((error: { appId: string | null }) => error.appId)).toEqual([c.appId]);
  });

  it.each([
    ['no owner', '', 2],
    ['owner=direct', '&owner=direct', 1],
    ['owner=<the application>', '&owner=APP', 1],
  ])('when a portal key retries an error type in store "web" (a store of each owner) with %s, then %i objects are queued', async (_name, owner, queued) => {
    const retried = await request(fixture.app)
      .post(`/console/api/v1/errors/retry?hapikey=${c.portalKey}${owner.replace('APP', c.appId)}`)
      .send({ errorType: 'INVALID_EMAIL_ADDRESS', storeId: 'web' })
      .expect(202);
    expect(retried.body).toEqual({ objectsQueued: queued, more: false, notStored: 0, inDeletedStores: 0, setAside: 0, setAsideMore: false });
  });

  it('when a portal key retries an object of the application with owner=direct, then it answers 404', async () => {
    const object = { portalId: OWN, appId: c.appId, storeId: 'web', objectType: 'CONTACT', externalObjectId: `c-${OWN}` };
    await request(fixture.app).post(`/console/api/v1/errors/retry?hapikey=${c.portalKey}&owner=direct`).send({ object }).expect(404);
  });

  it('when an integrator retries an object of a portal that uninstalled the application, then it answers 404 and queues nothing', async () => {
    const object = { portalId: UNINSTALLED, appId: c.appId, storeId: 'web', objectType: 'CONTACT', externalObjectId: `c-${UNINSTALLED}` };
    await request(fixture.app).post(`/console/api/v1/errors/retry?hapikey=${c.developerKey}&appId=${c.appId}`).send({ object }).expect(404);
    const retried = await request(fixture.app)
      .post(`/console/api/v1/errors/retry?hapikey=${c.developerKey}&appId=${c.appId}`)
      .send({ errorType: 'INVALID_EMAIL_ADDRESS' })
      .expect(202);
    expect(retried.body).toEqual({ objectsQueued: 1, more: false, notStored: 0, inDeletedStores: 0, setAside: 0, setAsideMore: false });
  });
});
