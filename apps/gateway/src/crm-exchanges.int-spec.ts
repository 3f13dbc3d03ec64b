import type { Express } from 'express';
import request from 'supertest';
import type { ObjectScope, Tenant } from '@ecomm-sync/contracts';
import type { StoredCrmExchange } from '@ecomm-sync/data-access';
import { syncKeyOf } from '@ecomm-sync/domain';
import { gatewayCredentials, seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8401;
const OTHER = 8402;
const KEY = 'pk-crm-exchanges-8401';
const OTHER_KEY = 'pk-crm-exchanges-8402';
const direct: Tenant = { portalId: PORTAL, appId: null };
const deals: ObjectScope = { tenant: direct, storeId: 'web', objectType: 'DEAL' };

const anExchange = (overrides: Partial<StoredCrmExchange>): StoredCrmExchange => ({
  at: new Date(1_700_000_000_000),
  portalId: PORTAL,
  account: `builtin:${PORTAL}`,
  baseUrl: 'http://127.0.0.1:3100',
  method: 'POST',
  path: '/crm/v3/objects/deals/batch/upsert',
  attempt: 1,
  objects: [],
  status: 200,
  failed: false,
  durationMs: 3,
  correlationId: null,
  error: null,
  request: { headers: { authorization: '[redacted]' }, body: '{"inputs":[]}', bytes: 13, truncated: false },
  answer: { headers: {}, body: '{"results":[]}', bytes: 14, truncated: false },
  ...overrides,
});
const at = (second: number) => new Date(1_700_000_000_000 + second * 1000);

/** The CRM request log in the console API (decision 0051): an object's exchanges by tenant, failures per account for the operator. */
describe('the console API of the CRM request log', () => {
  let fixture: GatewayFixture;
  let app: Express;
  /** An application installed in the portal: its OAuth token, and the sync key of its contact c1. */
  const application = { appId: '', accessToken: '', contactKey: '' };

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-crm-exchanges');
    app = fixture.app;
    const { repositories } = fixture.database;
    await seedPortal(repositories, { portalId: PORTAL, apiKey: KEY });
    await seedPortal(repositories, { portalId: OTHER, apiKey: OTHER_KEY });
    // Deal d1 was deleted once and created again: its second incarnation (generation 1) is CRM object 55.
    const claim = await repositories.objectSyncs.claim(deals, new Map(), ['d1'], () => true);
    await repositories.objectSyncs.recordProcessed(
      deals,
      [{ externalObjectId: 'd1', rev: 1, settingsRev: 1, processedAt: 1, changedAt: 1, link: { crmId: 55, generation: 1, archived: false } }],
      claim,
    );
    const firstKey = `DEAL:key:${syncKeyOf(deals, 'd1', 0)}`;
    const secondKey = `DEAL:key:${syncKeyOf(deals, 'd1', 1)}`;
    await repositories.crmExchanges.insertMany([
      anExchange({ at: at(1), objects: [firstKey], status: 207, failed: true, correlationId: 'corr-207' }),
      anExchange({ at: at(2), objects: [secondKey], status: 429, failed: true, correlationId: 'corr-429' }),
      anExchange({ at: at(3), attempt: 2, objects: [secondKey, 'DEAL:crm:55'], status: 200 }),
      anExchange({ at: at(4), path: '/crm/v3/objects/deals/batch/update', objects: ['DEAL:crm:55', 'DEAL:crm:56'] }),
      // Another deal, and another portal's exchange that carries the same keys: neither is d1's.
      anExchange({ at: at(5), objects: ['DEAL:crm:56'] }),
      anExchange({ at: at(6), portalId: OTHER, account: `builtin:${OTHER}`, objects: [secondKey, 'DEAL:crm:55'], status: 500, failed: true }),
    ]);

    // An application's contact c1 and the portal's own contact c9 share one e-mail, so one CRM contact (77, decision 44).
    const credentials = gatewayCredentials(app, repositories);
    const { developerId } = await credentials.developer('Integrator');
    application.appId = (await credentials.app(developerId, 'Connector')).appId;
    application.accessToken = (await credentials.install(PORTAL, application.appId)).accessToken;
    const appContacts: ObjectScope = { tenant: { portalId: PORTAL, appId: application.appId }, storeId: 'web', objectType: 'CONTACT' };
    const directContacts: ObjectScope = { tenant: direct, storeId: 'web', objectType: 'CONTACT' };
    for (const [scope, id] of [
      [appContacts, 'c1'],
      [directContacts, 'c9'],
    ] as const) {
      const contactClaim = await repositories.objectSyncs.claim(scope, new Map(), [id], () => true);
      const link = { crmId: 77, generation: 0, archived: false };
      await repositories.objectSyncs.recordProcessed(
        scope,
        [{ externalObjectId: id, rev: 1, settingsRev: 1, processedAt: 1, changedAt: 1, link }],
        contactClaim,
      );
    }
    application.contactKey = `CONTACT:key:${syncKeyOf(appContacts, 'c1', 0)}`;
    await repositories.crmExchanges.insertMany([
      anExchange({
        at: at(7),
        path: '/crm/v3/objects/contacts/batch/upsert',
        objects: [application.contactKey, 'CONTACT:crm:77'],
        correlationId: 'app-upsert',
      }),
      anExchange({
        at: at(8),
        path: '/crm/v3/objects/contacts/batch/upsert',
        objects: [`CONTACT:key:${syncKeyOf(directContacts, 'c9', 0)}`, 'CONTACT:crm:77'],
        correlationId: 'portal-upsert',
      }),
      // Updates by the CRM id: one sent for no tenant it said (as before the log recorded tenants), one for each tenant.
      anExchange({ at: at(9), path: '/crm/v3/objects/contacts/batch/update', objects: ['CONTACT:crm:77'], correlationId: 'update-by-id' }),
      anExchange({
        at: at(10),
        path: '/crm/v3/objects/contacts/batch/update',
        objects: ['CONTACT:crm:77'],
        appId: application.appId,
        correlationId: 'app-update',
      }),
      anExchange({ at: at(11), path: '/crm/v3/objects/contacts/batch/update', objects: ['CONTACT:crm:77'], appId: null, correlationId: 'portal-update' }),
      anExchange({
        at: at(12),
        path: '/crm/v3/objects/contacts/batch/update',
        objects: ['CONTACT:crm:77'],
        appId: 'another-app',
        correlationId: 'other-app-update',
      }),
    ]);
  });
  afterAll(() => fixture.close());

  const exchangesOf = (credential: string, query: string) => request(app).get(`/console/api/v1/objects/crm-exchanges?hapikey=${credential}&${query}`);

  it("when a customer asks for an object's CRM exchanges, then they get each one that carried its sync keys or CRM id, newest first, and no other", async () => {
    const { body } = await exchangesOf(KEY, 'storeId=web&objectType=DEAL&externalObjectId=d1').expect(200);
    expect(body.limit).toBe(50);
    expect(body.results.map((exchange: { at: number; status: number }) => [exchange.at, exchange.status])).toEqual([
      [at(4).getTime(), 200],
      [at(3).getTime(), 200],
      [at(2).getTime(), 429],
      [at(1).getTime(), 207],
    ]);
    expect(body.results[2]).toMatchObject({ correlationId: 'corr-429', failed: true, portalId: PORTAL, request: { headers: { authorization: '[redacted]' } } });
    expect(typeof body.results[0].id).toBe('string');
  });

  it("when an application asks for its object's CRM exchanges, then it gets those that carried its sync keys or were sent for it, never another tenant's of the same CRM object", async () => {
    const path = '/console/api/v1/objects/crm-exchanges?storeId=web&objectType=CONTACT&externalObjectId=c1';
    const { body } = await request(app).get(path).set('authorization', `Bearer ${application.accessToken}`).expect(200);
    expect(body.results.map((exchange: { correlationId: string }) => exchange.correlationId)).toEqual(['app-update', 'app-upsert']);
    expect(body.results[0]).toMatchObject({ appId: application.appId });
    // The portal's own credential reads every tenant of the portal: the CRM object's other exchanges too.
    const portalView = await exchangesOf(KEY, `appId=${application.appId}&storeId=web&objectType=CONTACT&externalObjectId=c1`).expect(200);
    expect(portalView.body.results.map((exchange: { correlationId: string }) => exchange.correlationId)).toEqual([
      'other-app-update',
      'portal-update',
      'app-update',
      'update-by-id',
      'portal-upsert',
      'app-upsert',
    ]);
  });

  it('when a limit is given, then at most that many are listed; outside 1 to 200 it is refused', async () => {
    const { body } = await exchangesOf(KEY, 'storeId=web&objectType=DEAL&externalObjectId=d1&limit=1').expect(200);
    expect(body.results).toHaveLength(1);
    await exchangesOf(KEY, 'storeId=web&objectType=DEAL&externalObjectId=d1&limit=0').expect(400);
    await exchangesOf(KEY, 'storeId=web&objectType=TICKET&externalObjectId=d1').expect(400);
  });

  it("when another portal's credential asks for this portal's object, then it is refused; for its own portal it sees only its own exchanges", async () => {
    const refused = await exchangesOf(OTHER_KEY, `portalId=${PORTAL}&storeId=web&objectType=DEAL&externalObjectId=d1`).expect(403);
    expect(JSON.stringify(refused.body)).not.toContain('corr-');
    const own = await exchangesOf(OTHER_KEY, 'storeId=web&objectType=DEAL&externalObjectId=d1').expect(200);
    // The other portal has no deal d1: its own keys for d1 (generation 0) match none of the stored exchanges.
    expect(own.body.results).toEqual([]);
    await request(app).get('/console/api/v1/objects/crm-exchanges?storeId=web&objectType=DEAL&externalObjectId=d1').expect(401);
  });

  it('when the operator asks for recent failed exchanges, then they get them newest first, of one account when named', async () => {
    const admin = (query: string) => request(app).get(`/console/api/v1/ops/crm-exchanges/failed?${query}`).set('authorization', 'Bearer admin');
    const all = await admin('').expect(200);
    expect(all.body.results.map((exchange: { status: number }) => exchange.status)).toEqual([500, 429, 207]);
    const ours = await admin(`account=builtin:${PORTAL}`).expect(200);
    expect(ours.body.results.map((exchange: { account: string }) => exchange.account)).toEqual([`builtin:${PORTAL}`, `builtin:${PORTAL}`]);
    await admin('limit=500').expect(400);
  });

  it("when a portal's credential asks for the operator's failed exchanges, then it is refused", async () => {
    await request(app).get(`/console/api/v1/ops/crm-exchanges/failed?hapikey=${KEY}`).expect(401);
    await request(app).get('/console/api/v1/ops/crm-exchanges/failed').set('authorization', `Bearer ${KEY}`).expect(401);
  });
});
