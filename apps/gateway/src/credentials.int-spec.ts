import type { Express } from 'express';
import request from 'supertest';
import type { Tenant } from '@ecomm-sync/contracts';
import type { Database } from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import {
  type AppCredential,
  aV1Contact,
  aV2Message,
  aV2Submission,
  type DeveloperCredential,
  type GatewayCredentialBuilder,
  gatewayCredentials,
  type InstallTokens,
  waitFor,
} from '@ecomm-sync/testing';
import type { GatewayDeps } from './app';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL_A = 8101;
const PORTAL_B = 8102;

/**
 * Issue 7: every endpoint with every kind of credential, isolation between tenants, OAuth tokens,
 * rotation and revocation (at once, in every replica), and per-credential rate limits.
 */
describe('credentials and tenant isolation', () => {
  let fixture: GatewayFixture;
  let database: Database;
  let app: Express;

  /** Everyone's credentials, made through the admin API. */
  const c = {} as {
    portalKeyA: string;
    portalKeyB: string;
    privateAppA: string;
    privateAppACredentialId: string;
    developer1: DeveloperCredential;
    developer2: DeveloperCredential;
    appX: AppCredential;
    appY: AppCredential;
    /** App X installed in portal A; app Y in portal B. */
    tokensAX: InstallTokens;
    tokensBY: InstallTokens;
  };
  let tenantCredentials: GatewayCredentialBuilder;

  const gateway = (overrides: Partial<GatewayDeps> = {}) => fixture.gateway(overrides);
  const admin = (method: 'get' | 'post' | 'delete', path: string, body?: object, on = app) => {
    const call = request(on)[method](path).set('authorization', 'Bearer admin');
    return body ? call.send(body) : call;
  };

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-credentials');
    ({ database, app } = fixture);
    tenantCredentials = gatewayCredentials(app, database.repositories);

    c.portalKeyA = 'pk-credentials-a';
    c.portalKeyB = 'pk-credentials-b';
    await tenantCredentials.portal(PORTAL_A, c.portalKeyA);
    await tenantCredentials.portal(PORTAL_B, c.portalKeyB);
    const privateApp = await tenantCredentials.privateApp(PORTAL_A, 'reporting');
    c.privateAppA = privateApp.token;
    c.privateAppACredentialId = privateApp.credentialId;
    c.developer1 = await tenantCredentials.developer('One');
    c.developer2 = await tenantCredentials.developer('Two');
    c.appX = await tenantCredentials.app(c.developer1.developerId, 'Connector X');
    c.appY = await tenantCredentials.app(c.developer2.developerId, 'Connector Y');
    c.tokensAX = await tenantCredentials.install(PORTAL_A, c.appX.appId);
    c.tokensBY = await tenantCredentials.install(PORTAL_B, c.appY.appId);

    // Data each tenant can see: a store `web`, an object c1, settings, and one error each.
    const tenants: Tenant[] = [
      { portalId: PORTAL_A, appId: null },
      { portalId: PORTAL_A, appId: c.appX.appId },
      { portalId: PORTAL_B, appId: c.appY.appId },
    ];
    for (const tenant of tenants) {
      await database.repositories.stores.upsert(tenant, { id: 'web', label: 'Web' });
      for (const storeId of ['default', 'web']) {
        await database.repositories.objectStates.insertNew({ tenant, storeId, objectType: 'CONTACT' }, [{ externalObjectId: 'c1', state: emptyObjectState() }]);
      }
      await database.repositories.settings.put(tenant, { enabled: true, importOnInstall: false, webhookUri: null, mappings: {} });
      if (tenant.appId)
        await database.repositories.objectStates.insertNew({ tenant, storeId: 'web', objectType: 'CONTACT' }, [
          { externalObjectId: `only-${tenant.portalId}`, state: emptyObjectState() },
        ]);
      await database.repositories.syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        {
          externalObjectId: `err-${tenant.portalId}-${tenant.appId ?? 'direct'}`,
          rev: 1,
          settingsRev: 1,
          type: 'INVALID_EMAIL_ADDRESS',
          details: 'x',
          changedAt: 1,
          erroredAt: 1,
        },
      ]);
    }
  });

  afterAll(() => fixture.close());

  type Kind = 'none' | 'wrongKey' | 'wrongBearer' | 'portalKey' | 'privateApp' | 'developerKey' | 'developerKeyWithAppId' | 'oauth';
  const KINDS: Kind[] = ['none', 'wrongKey', 'wrongBearer', 'portalKey', 'privateApp', 'developerKey', 'developerKeyWithAppId', 'oauth'];

  /** Adds the credential of `kind` to a request for `path`. */
  function withCredential(kind: Kind, method: 'get' | 'put' | 'post', path: string) {
    const url = (query: Record<string, string>) => {
      const search = new URLSearchParams(query).toString();
      return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
    };
    switch (kind) {
      case 'none':
        return request(app)[method](url({}));
      case 'wrongKey':
        return request(app)[method](url({ hapikey: 'pk-not-a-key' }));
      case 'wrongBearer':
        return request(app)[method](url({})).set('authorization', 'Bearer oat-not-a-token');
      case 'portalKey':
        return request(app)[method](url({ hapikey: c.portalKeyA }));
      case 'privateApp':
        return request(app)[method](url({})).set('authorization', `Bearer ${c.privateAppA}`);
      case 'developerKey':
        return request(app)[method](url({ hapikey: c.developer1.apiKey }));
      case 'developerKeyWithAppId':
        return request(app)[method](url({ hapikey: c.developer1.apiKey, appId: c.appX.appId }));
      case 'oauth':
        return request(app)[method](url({})).set('authorization', `Bearer ${c.tokensAX.accessToken}`);
    }
  }

  const v1Settings = { enabled: false, contactSyncSettings: { properties: [{ propertyName: 'mail', targetCrmProperty: 'email', dataType: 'STRING' }] } };
  const v2Settings = { enabled: false, mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email' }] } } };
  const v1 = '/extensions/ecomm/v1';
  const v2 = '/extensions/ecomm/v2';

  // Columns: none, wrong hapikey, wrong bearer, portal key, private-app token, developer key
  // without appId, developer key with appId, OAuth access token (SPEC.md "Authentication").
  const MATRIX: [string, 'get' | 'put' | 'post', string, object | undefined, number[]][] = [
    // Imports: the customer starts them (portal credential + appId, 400 without), the application's
    // token sends pages and ends (API keys: 403); here no import exists (404) and app X has no
    // import address yet (409).
    ['v1 import start', 'post', `${v1}/imports`, undefined, [401, 401, 401, 400, 400, 403, 403, 409]],
    ['v1 import state', 'get', `${v1}/imports/123`, undefined, [401, 401, 401, 400, 400, 403, 403, 404]],
    ['v2 import start', 'post', `${v2}/imports`, { storeId: 'web' }, [401, 401, 401, 400, 400, 403, 403, 409]],
    ['v2 import state', 'get', `${v2}/imports/123?storeId=web`, undefined, [401, 401, 401, 400, 400, 403, 403, 404]],
    ['v1 import page', 'put', `${v1}/import-pages/123/CONTACT/0`, [{ integratorObjectId: 'i1' }], [401, 401, 401, 403, 403, 403, 403, 404]],
    ['v1 import page, old path', 'put', '/import-pages/123/CONTACT/0', [{ integratorObjectId: 'i1' }], [401, 401, 401, 403, 403, 403, 403, 404]],
    ['v1 import page read', 'get', `${v1}/import-pages/123/CONTACT/0`, undefined, [401, 401, 401, 403, 403, 403, 403, 404]],
    ['v1 import end', 'put', `${v1}/import-pages/123/CONTACT/end`, { pageCount: 0, itemCount: 0 }, [401, 401, 401, 403, 403, 403, 403, 404]],
    [
      'v2 import page',
      'post',
      `${v2}/imports/page`,
      { importStartedAt: 123, pageNumber: 0, storeId: 'web', objectType: 'CONTACT', messages: [{ externalObjectId: 'i1' }] },
      [401, 401, 401, 403, 403, 403, 403, 404],
    ],
    [
      'v2 import end',
      'post',
      `${v2}/imports/end`,
      { importStartedAt: 123, storeId: 'web', objectType: 'CONTACT', pageCount: 0, itemCount: 0 },
      [401, 401, 401, 403, 403, 403, 403, 404],
    ],
    ['v1 sync messages', 'put', `${v1}/sync-messages/CONTACT`, [aV1Contact()], [401, 401, 401, 204, 204, 403, 403, 204]],
    ['v2 sync messages', 'put', `${v2}/sync/messages`, aV2Submission('CONTACT', [aV2Message()], 'web'), [401, 401, 401, 204, 204, 403, 403, 204]],
    ['v1 install status', 'get', `${v1}/installs/status`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v2 store list', 'get', `${v2}/stores`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v2 one store', 'get', `${v2}/stores/web`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v1 sync status', 'get', `${v1}/sync-status/CONTACT/c1`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v2 sync status', 'get', `${v2}/sync/status/web/CONTACT/c1`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v2 CRM health', 'get', `${v2}/sync/crm-health`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v1 errors of one object', 'get', `${v1}/sync-errors/object/CONTACT/c1`, undefined, [401, 401, 401, 200, 200, 403, 403, 200]],
    ['v1 settings GET', 'get', `${v1}/settings`, undefined, [401, 401, 401, 200, 200, 400, 200, 403]],
    ['v1 settings PUT', 'put', `${v1}/settings`, v1Settings, [401, 401, 401, 200, 200, 400, 200, 403]],
    ['v2 settings GET', 'get', `${v2}/settings`, undefined, [401, 401, 401, 200, 200, 400, 200, 403]],
    ['v2 settings PUT', 'put', `${v2}/settings`, v2Settings, [401, 401, 401, 200, 200, 400, 200, 403]],
    ['v1 import settings GET', 'get', `${v1}/import-settings`, undefined, [401, 401, 401, 200, 200, 400, 200, 403]],
    [
      'v1 import settings PUT',
      'put',
      `${v1}/import-settings`,
      { importTriggerUri: 'https://shop.example.com/import' },
      [401, 401, 401, 200, 200, 400, 200, 403],
    ],
    ['v1 sync errors', 'get', `${v1}/sync-errors`, undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['v1 portal errors', 'get', `${v1}/sync-errors/portal/${PORTAL_A}`, undefined, [401, 401, 401, 200, 200, 403, 403, 403]],
    ['v2 portal errors', 'get', `${v2}/sync/errors/portal`, undefined, [401, 401, 401, 200, 200, 403, 403, 403]],
    ['v2 portal errors by id', 'get', `${v2}/sync/errors/portal/${PORTAL_A}`, undefined, [401, 401, 401, 200, 200, 403, 403, 403]],
    ['v1 application errors', 'get', `${v1}/sync-errors/app/{appX}`, undefined, [401, 401, 401, 403, 403, 200, 200, 403]],
    ['v2 application errors', 'get', `${v2}/sync/errors/app/{appX}`, undefined, [401, 401, 401, 403, 403, 200, 200, 403]],
    ['v2 errors of the installed application', 'get', `${v2}/sync/errors`, undefined, [401, 401, 401, 403, 403, 403, 403, 200]],
    // The web console's own API (decision 0033): customers, integrators with appId; the operations
    // part takes the admin token only, which is none of these credentials.
    ['console session', 'get', '/console/api/v1/session', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['console installs', 'get', '/console/api/v1/installs', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['console overview', 'get', '/console/api/v1/overview', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['console errors', 'get', '/console/api/v1/errors', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    [
      'console retry of an error type',
      'post',
      '/console/api/v1/errors/retry',
      { errorType: 'INVALID_EMAIL_ADDRESS' },
      [401, 401, 401, 202, 202, 400, 202, 202],
    ],
    // The inspector and mappings pages: the tenant in the query; the CRM of this fixture is
    // unreachable, so a request that passes the credential check gets 502 from the CRM reads.
    [
      'console object inspector',
      'get',
      `/console/api/v1/objects?portalId=${PORTAL_A}&storeId=web&objectType=CONTACT&externalObjectId=c1`,
      undefined,
      [401, 401, 401, 200, 200, 400, 200, 200],
    ],
    ['console settings check', 'post', '/console/api/v1/mappings/validate', v2Settings, [401, 401, 401, 200, 200, 400, 200, 200]],
    [
      'console CRM properties',
      'get',
      `/console/api/v1/mappings/crm-properties?portalId=${PORTAL_A}&objectType=CONTACT`,
      undefined,
      [401, 401, 401, 502, 502, 400, 502, 502],
    ],
    [
      'console dry run',
      'post',
      `/console/api/v1/mappings/dry-run?portalId=${PORTAL_A}`,
      { settings: v2Settings, storeId: 'web', objectType: 'CONTACT', message: { externalObjectId: 'typed', properties: { mail: 'a@b.co' } } },
      [401, 401, 401, 502, 502, 400, 502, 502],
    ],
    ['console report', 'get', '/console/api/v1/report', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['console activity', 'get', '/console/api/v1/activity', undefined, [401, 401, 401, 200, 200, 400, 200, 200]],
    ['console queues', 'get', '/console/api/v1/ops/queues', undefined, [401, 401, 401, 401, 401, 401, 401, 401]],
    ['console redrive', 'post', '/console/api/v1/ops/queues/mapper.sync-batches/redrive', undefined, [401, 401, 401, 401, 401, 401, 401, 401]],
    ['console dead letters', 'get', '/console/api/v1/ops/queues/mapper.sync-batches/dead-letters', undefined, [401, 401, 401, 401, 401, 401, 401, 401]],
    ["console services' readiness", 'get', '/console/api/v1/ops/services', undefined, [401, 401, 401, 401, 401, 401, 401, 401]],
    ['console CRM accounts', 'get', '/console/api/v1/ops/crm-accounts', undefined, [401, 401, 401, 401, 401, 401, 401, 401]],
  ];

  describe.each(MATRIX)('%s', (_name, method, rawPath, body, expected) => {
    it.each(KINDS.map((kind, index) => [kind, expected[index]] as const))('with %s answers %i', async (kind, status) => {
      const path = rawPath.replace('{appX}', c.appX.appId);
      const call = withCredential(kind, method, path);
      const response = await (body ? call.send(body) : call);
      expect(response.status).toBe(status);
      if (status >= 400) expect(response.body).toEqual({ status: 'error', message: expect.any(String), requestId: expect.stringMatching(/^[a-z0-9]{32}$/) });
    });
  });

  describe('another tenant', () => {
    it.each([
      ["another portal's key on a portal path", 403, () => request(app).get(`${v1}/sync-errors/portal/${PORTAL_A}?hapikey=${c.portalKeyB}`)],
      ["another portal's key on a v2 portal path", 403, () => request(app).get(`${v2}/sync/errors/portal/${PORTAL_A}?hapikey=${c.portalKeyB}`)],
      [
        "another developer's key on an application's settings",
        404,
        () => request(app).get(`${v1}/settings?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      [
        "another developer's key on an application's v2 settings",
        404,
        () => request(app).put(`${v2}/settings?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`).send(v2Settings),
      ],
      [
        "another developer's key on an application's errors",
        404,
        () => request(app).get(`${v2}/sync/errors/app/${c.appX.appId}?hapikey=${c.developer2.apiKey}`),
      ],
      [
        "another developer's key on the v1 error listing",
        404,
        () => request(app).get(`${v1}/sync-errors?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      ['an application that does not exist', 404, () => request(app).get(`${v1}/settings?hapikey=${c.developer1.apiKey}&appId=999`)],
      [
        "another portal's OAuth token on an object of another portal",
        404,
        () => request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}`).set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "another portal's key on a console page of another portal",
        403,
        () => request(app).get(`/console/api/v1/overview?portalId=${PORTAL_A}&hapikey=${c.portalKeyB}`),
      ],
      [
        "another portal's OAuth token on the console errors of another portal",
        403,
        () => request(app).get(`/console/api/v1/errors?portalId=${PORTAL_A}`).set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "another portal's key retrying an object of another portal",
        404,
        () =>
          request(app)
            .post(`/console/api/v1/errors/retry?hapikey=${c.portalKeyB}`)
            .send({ object: { portalId: PORTAL_A, appId: null, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'c1' } }),
      ],
      [
        "another portal's key inspecting an object of another portal",
        403,
        () => request(app).get(`/console/api/v1/objects?portalId=${PORTAL_A}&storeId=web&objectType=CONTACT&externalObjectId=c1&hapikey=${c.portalKeyB}`),
      ],
      [
        "another portal's OAuth token inspecting an object of another portal",
        403,
        () =>
          request(app)
            .get(`/console/api/v1/objects?portalId=${PORTAL_A}&storeId=web&objectType=CONTACT&externalObjectId=only-${PORTAL_A}`)
            .set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "a developer's key inspecting its application in a portal that did not install it",
        404,
        () =>
          request(app).get(
            `/console/api/v1/objects?portalId=${PORTAL_B}&storeId=web&objectType=CONTACT&externalObjectId=c1&hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`,
          ),
      ],
      [
        "a portal's key inspecting an application not installed in it",
        404,
        () =>
          request(app).get(
            `/console/api/v1/objects?storeId=web&objectType=CONTACT&externalObjectId=only-${PORTAL_B}&appId=${c.appY.appId}&hapikey=${c.portalKeyA}`,
          ),
      ],
      [
        "another portal's key on the reporting page of another portal",
        403,
        () => request(app).get(`/console/api/v1/report?portalId=${PORTAL_A}&hapikey=${c.portalKeyB}`),
      ],
      [
        "another developer's key on an application's console",
        404,
        () => request(app).get(`/console/api/v1/overview?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      [
        "another portal's key on an object of another portal",
        404,
        () => request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}?hapikey=${c.portalKeyB}`),
      ],
    ])('%s answers %i', async (_name, status, send) => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body.message).toEqual(expect.any(String));
    });

    it('lists to each credential only its own errors', async () => {
      const ids = async (call: request.Test) =>
        ((await call.expect(200)).body.results as { externalObjectId?: string; integratorObjectId?: string }[])
          .map((e) => e.externalObjectId ?? e.integratorObjectId)
          .sort();
      const x = c.appX.appId;
      const y = c.appY.appId;
      expect(await ids(request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([`err-${PORTAL_B}-${y}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/portal?hapikey=${c.portalKeyA}`))).toEqual([`err-${PORTAL_A}-${x}`, `err-${PORTAL_A}-direct`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/portal`).set('authorization', `Bearer ${c.privateAppA}`))).toEqual([
        `err-${PORTAL_A}-${x}`,
        `err-${PORTAL_A}-direct`,
      ]);
      expect(await ids(request(app).get(`${v1}/sync-errors?hapikey=${c.portalKeyA}`))).toEqual([`err-${PORTAL_A}-direct`]);
      expect(await ids(request(app).get(`${v1}/sync-errors?hapikey=${c.developer1.apiKey}&appId=${x}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      // An installed application's OAuth token: its errors in its portal, in v1 as in v2.
      expect(await ids(request(app).get(`${v1}/sync-errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      expect(await ids(request(app).get(`${v1}/sync-errors`).set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([`err-${PORTAL_B}-${y}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/app/${y}?hapikey=${c.developer2.apiKey}`))).toEqual([`err-${PORTAL_B}-${y}`]);
    });

    it("when a portal uninstalls the application, then the developer's listings no longer show that portal's errors", async () => {
      const PORTAL_C = 8103;
      const x = c.appX.appId;
      await tenantCredentials.portal(PORTAL_C, 'pk-credentials-c');
      await tenantCredentials.install(PORTAL_C, x);
      const error = { rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS' as const, details: 'x', changedAt: 1, erroredAt: 1 };
      await database.repositories.syncErrors.record({ tenant: { portalId: PORTAL_C, appId: x }, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: `err-${PORTAL_C}-${x}`, ...error },
      ]);
      const listings = [
        `${v2}/sync/errors/app/${x}?hapikey=${c.developer1.apiKey}`,
        `${v1}/sync-errors/app/${x}?hapikey=${c.developer1.apiKey}`,
        `${v1}/sync-errors?hapikey=${c.developer1.apiKey}&appId=${x}`,
      ];
      const ids = async (path: string) =>
        ((await request(app).get(path).expect(200)).body.results as { externalObjectId?: string; integratorObjectId?: string }[])
          .map((e) => e.externalObjectId ?? e.integratorObjectId)
          .sort();
      for (const path of listings) expect(await ids(path)).toEqual([`err-${PORTAL_A}-${x}`, `err-${PORTAL_C}-${x}`]);

      await tenantCredentials.uninstall(PORTAL_C, x);

      for (const path of listings) expect(await ids(path)).toEqual([`err-${PORTAL_A}-${x}`]);
    });

    it('when each credential lists the console installs, then it sees only its own portals and applications', async () => {
      const installs = async (call: request.Test) =>
        ((await call.expect(200)).body.results as { portalId: number; appId: string; appName: string }[]).map((i) => [i.portalId, i.appId, i.appName]);
      const [x, y] = [c.appX.appId, c.appY.appId];
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.developer1.apiKey}&appId=${x}`))).toEqual([[PORTAL_A, x, 'Connector X']]);
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.developer2.apiKey}&appId=${y}`))).toEqual([[PORTAL_B, y, 'Connector Y']]);
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.portalKeyA}`))).toEqual([[PORTAL_A, x, 'Connector X']]);
      expect(await installs(request(app).get('/console/api/v1/installs').set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([
        [PORTAL_B, y, 'Connector Y'],
      ]);
      await request(app).get(`/console/api/v1/installs?hapikey=${c.developer1.apiKey}&appId=${x}&portalId=${PORTAL_B}`).expect(404);
      await request(app).get(`/console/api/v1/installs?hapikey=${c.portalKeyB}&portalId=${PORTAL_A}`).expect(403);
    });

    it("reads an object's status with its own tenant's credential", async () => {
      await request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}`).set('authorization', `Bearer ${c.tokensAX.accessToken}`).expect(200);
    });

    it('reads and writes settings of the tenant the credential names', async () => {
      await request(app)
        .put(`${v2}/settings?hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`)
        .send({ ...v2Settings, webhookUri: 'https://x.example.com/hook' })
        .expect(200);
      expect((await request(app).get(`${v2}/settings?hapikey=${c.portalKeyA}`).expect(200)).body.webhookUri).not.toBe('https://x.example.com/hook');
      expect((await request(app).get(`${v2}/settings?hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`).expect(200)).body.webhookUri).toBe(
        'https://x.example.com/hook',
      );
    });
  });

  describe('the field client that sends Authorization: Bearer undefined', () => {
    it.each(['Bearer undefined', 'Bearer null', 'Bearer', 'Basic abc'])('accepts a valid hapikey with "%s"', async (header) => {
      await request(app).get(`${v1}/sync-status/CONTACT/c1?hapikey=${c.portalKeyA}`).set('authorization', header).expect(200);
    });

    it('refuses "Bearer undefined" alone with 401', async () => {
      const response = await request(app).get(`${v1}/sync-status/CONTACT/c1`).set('authorization', 'Bearer undefined').expect(401);
      expect(response.body.message).toMatch(/Missing credential/);
    });
  });

  describe('OAuth tokens', () => {
    const token = (form: Record<string, string>, on = app) => request(on).post('/oauth/v1/token').type('form').send(form);

    const install = (): Promise<InstallTokens> => tenantCredentials.install(PORTAL_A, c.appX.appId);

    const refresh = (refreshToken: string, on = app) =>
      token({ grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: refreshToken }, on);

    it('refreshes with the client credentials: a new access token, and the same refresh token, which refreshes again (as the vendor)', async () => {
      const first = await install();
      const refreshed = await refresh(first.refreshToken).expect(200);
      expect(refreshed.body).toEqual({
        access_token: expect.stringMatching(/^oat-/),
        refresh_token: first.refreshToken,
        expires_in: 1800,
        token_type: 'bearer',
      });
      expect(refreshed.headers['cache-control']).toBe('no-store');
      const again = await refresh(first.refreshToken).expect(200);
      expect(again.body.access_token).not.toBe(refreshed.body.access_token);
      for (const accessToken of [first.accessToken, refreshed.body.access_token, again.body.access_token])
        await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(200);
    });

    it('when an operator revokes a lasting refresh token, then it no longer refreshes, and the access tokens it gave still work until they expire', async () => {
      const first = await install();
      const refreshed = await refresh(first.refreshToken).expect(200);
      const { credentialId } = (await fixture.database.repositories.credentials.resolve(first.refreshToken))!;
      await admin('delete', `/admin/v1/credentials/${credentialId}`).expect(204);
      expect((await refresh(first.refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${refreshed.body.access_token}`).expect(200);
    });

    it('with rotation on, refreshes with the client credentials: a new pair, and once that pair refreshed, the first refresh token is refused', async () => {
      const rotating = await fixture.gateway({ oauth: { rotateRefreshTokens: true } });
      const first = await install();
      const refreshed = await refresh(first.refreshToken, rotating).expect(200);
      expect(refreshed.body).toEqual({
        access_token: expect.stringMatching(/^oat-/),
        refresh_token: expect.stringMatching(/^ort-/),
        expires_in: 1800,
        token_type: 'bearer',
      });
      expect(refreshed.body.refresh_token).not.toBe(first.refreshToken);
      await request(rotating).get(`${v2}/sync/errors`).set('authorization', `Bearer ${refreshed.body.access_token}`).expect(200);
      // The new pair reached its client (it refreshed with it): the spent token is no lost answer's retry (oauth-refresh-reuse.int-spec.ts).
      await refresh(refreshed.body.refresh_token, rotating).expect(200);
      const again = await refresh(first.refreshToken, rotating).expect(400);
      expect(again.body).toMatchObject({ status: 'error', error: 'invalid_grant' });
    });

    it.each([
      ['a wrong client secret', 401, 'invalid_client', () => ({ client_secret: 'secret-wrong' })],
      ['an unknown client id', 401, 'invalid_client', () => ({ client_id: 'client-unknown' })],
      ["another application's client", 400, 'invalid_grant', () => ({ client_id: c.appY.clientId, client_secret: c.appY.clientSecret })],
      ['an access token as refresh token', 400, 'invalid_grant', () => ({ refresh_token: c.tokensAX.accessToken })],
      ['another grant type', 400, 'unsupported_grant_type', () => ({ grant_type: 'password' })],
      ['no client id', 400, 'invalid_request', () => ({ client_id: '' })],
    ])('with %s answers %i %s', async (_name, status, code, overrides) => {
      const { refreshToken } = await install();
      const form = { grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: refreshToken, ...overrides() };
      const response = await token(form).expect(status);
      expect(response.body).toMatchObject({ status: 'error', error: code, message: expect.any(String) });
    });

    it('answers 415 for a JSON body', async () => {
      await request(app).post('/oauth/v1/token').send({ grant_type: 'refresh_token' }).expect(415);
    });

    it('refuses an expired access token with 401 and says how to get a new one', async () => {
      const shortLived = await gateway({ oauth: { accessTokenTtlSeconds: 0 } });
      const { accessToken } = await tenantCredentials.on(shortLived).install(PORTAL_A, c.appX.appId);
      const response = await request(shortLived).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(401);
      expect(response.body.message).toMatch(/expired.*\/oauth\/v1\/token/);
    });

    it('when an install refreshes beyond the access tokens it may hold, then its oldest answer 401 and the newest work', async () => {
      const capped = await gateway({ oauth: { accessTokensPerInstall: 2 } });
      const first = await install();
      // Issued long ago, so that it is the oldest whatever millisecond the refreshes below fall in.
      const { credentialId } = (await database.repositories.credentials.resolve(first.accessToken))!;
      await database.connection.collection('credentials').updateOne({ credentialId }, { $set: { createdAt: 1 } });
      const second = await refresh(first.refreshToken, capped).expect(200);
      const third = await refresh(first.refreshToken, capped).expect(200);

      await request(capped).get(`${v2}/sync/errors`).set('authorization', `Bearer ${first.accessToken}`).expect(401);
      for (const accessToken of [second.body.access_token, third.body.access_token])
        await request(capped).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(200);
      expect(await database.repositories.credentials.list({ portalId: PORTAL_A, appId: c.appX.appId, kinds: ['access-token'] })).toHaveLength(2);
      c.tokensAX = await install(); // the other tests go on with a token the cap did not take
    });

    it('when the install is removed while a refresh stores its access token, then the refresh is refused and that token does not work', async () => {
      const { refreshToken } = await install();
      const { credentials, accounts } = database.repositories;
      const issue = credentials.issue.bind(credentials);
      const stored: string[] = [];
      // An uninstall's first step, between the refresh's insert and its reads; its delete of the tokens has not come yet.
      const spy = jest.spyOn(credentials, 'issue').mockImplementationOnce(async (...args) => {
        const issued = await issue(...args);
        stored.push(issued.secret);
        await accounts.removeInstall(PORTAL_A, c.appX.appId);
        return issued;
      });
      try {
        const refused = await refresh(refreshToken).expect(400);
        expect(refused.body).toMatchObject({ error: 'invalid_grant', message: expect.stringContaining('no longer installed') });
      } finally {
        spy.mockRestore();
      }
      expect(stored).toHaveLength(1);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${stored[0]}`).expect(401);
      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(204); // the rest of the uninstall
      c.tokensAX = await install(); // the other tests go on with a fresh install
    });

    it('uninstalling revokes every token of the install at once', async () => {
      const tokens = await install();
      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(204);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${tokens.accessToken}`).expect(401);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`).expect(401);
      await token({ grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: tokens.refreshToken }).expect(
        400,
      );
      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(404);
      c.tokensAX = await install(); // the other tests go on with a fresh install
    });
  });

  describe('rotation and revocation', () => {
    it('a rotated portal key stops working at once, in this replica and in another one that cached it', async () => {
      const cached = await gateway({ lookupCacheMs: 60_000 });
      const other = await gateway({ lookupCacheMs: 60_000 });
      const status = (on: Express, key: string) => request(on).get(`${v1}/sync-status/CONTACT/c1?hapikey=${key}`);
      await status(cached, c.portalKeyA).expect(200);
      await status(other, c.portalKeyA).expect(200);
      const rotated = await admin('post', `/admin/v1/portals/${PORTAL_A}/api-key`, undefined, cached).expect(201);
      await status(cached, c.portalKeyA).expect(401);
      await waitFor(async () => (await status(other, c.portalKeyA)).status === 401, { timeoutMs: 5000, message: 'the other replica to drop the rotated key' });
      c.portalKeyA = rotated.body.apiKey;
      await status(cached, c.portalKeyA).expect(200);
      await status(other, c.portalKeyA).expect(200);
    });

    it('a revoked private-app token stops working at once, even beside a valid hapikey', async () => {
      const cached = await gateway({ lookupCacheMs: 60_000 });
      const call = () => request(cached).get(`${v2}/sync/errors/portal`).set('authorization', `Bearer ${c.privateAppA}`);
      await call().expect(200);
      await admin('delete', `/admin/v1/credentials/${c.privateAppACredentialId}`, undefined, cached).expect(204);
      await call().expect(401);
      const besideKey = await request(cached)
        .get(`${v2}/sync/errors/portal?hapikey=${c.portalKeyA}`)
        .set('authorization', `Bearer ${c.privateAppA}`)
        .expect(401);
      expect(besideKey.body.message).toMatch(/Invalid bearer token.*revoked/);
      await admin('delete', `/admin/v1/credentials/${c.privateAppACredentialId}`, undefined, cached).expect(404);
    });

    it('a rotated developer key stops working, the new one works', async () => {
      const { apiKey } = (await admin('post', `/admin/v1/developers/${c.developer2.developerId}/api-key`).expect(201)).body;
      await request(app).get(`${v2}/sync/errors/app/${c.appY.appId}?hapikey=${c.developer2.apiKey}`).expect(401);
      await request(app).get(`${v2}/sync/errors/app/${c.appY.appId}?hapikey=${apiKey}`).expect(200);
      c.developer2.apiKey = apiKey;
    });

    it('a rotated client secret no longer refreshes tokens', async () => {
      const { refreshToken } = await tenantCredentials.install(PORTAL_B, c.appY.appId);
      const { clientSecret } = (await admin('post', `/admin/v1/apps/${c.appY.appId}/client-secret`).expect(201)).body;
      const form = { grant_type: 'refresh_token', client_id: c.appY.clientId, refresh_token: refreshToken };
      await request(app)
        .post('/oauth/v1/token')
        .type('form')
        .send({ ...form, client_secret: c.appY.clientSecret })
        .expect(401);
      await request(app)
        .post('/oauth/v1/token')
        .type('form')
        .send({ ...form, client_secret: clientSecret })
        .expect(200);
      c.appY.clientSecret = clientSecret;
    });
  });

  describe('admin API', () => {
    it('refuses every other credential with 401', async () => {
      for (const authorization of ['', 'Bearer wrong', `Bearer ${c.privateAppA}`, `Bearer ${c.tokensAX.accessToken}`]) {
        const response = await request(app).get('/admin/v1/portals').set('authorization', authorization).expect(401);
        expect(response.body.message).toMatch(/ADMIN_TOKEN/);
      }
      await request(app).get(`/admin/v1/portals?hapikey=${c.portalKeyA}`).expect(401);
    });

    it('lists portals, developers, applications, installs and credentials, never a secret', async () => {
      const portals = (await admin('get', '/admin/v1/portals').expect(200)).body.results;
      expect(portals).toEqual(expect.arrayContaining([{ portalId: PORTAL_A, name: `Portal ${PORTAL_A}`, active: true }]));
      const portal = (await admin('get', `/admin/v1/portals/${PORTAL_A}`).expect(200)).body;
      expect(portal.installs).toEqual([{ portalId: PORTAL_A, appId: c.appX.appId, installedAt: expect.any(Number) }]);
      expect(portal.credentials.map((credential: { kind: string }) => credential.kind)).toEqual(
        expect.arrayContaining(['portal-key', 'access-token', 'refresh-token']),
      );
      const developers = (await admin('get', '/admin/v1/developers').expect(200)).body.results;
      expect(developers).toEqual(expect.arrayContaining([{ developerId: c.developer1.developerId, name: 'One' }]));
      const applications = (await admin('get', `/admin/v1/apps?developerId=${c.developer1.developerId}`).expect(200)).body.results;
      expect(applications).toEqual([{ appId: c.appX.appId, developerId: c.developer1.developerId, name: 'Connector X', clientId: c.appX.clientId }]);
      const installs = (await admin('get', `/admin/v1/installs?appId=${c.appY.appId}`).expect(200)).body.results;
      expect(installs).toEqual([{ portalId: PORTAL_B, appId: c.appY.appId, installedAt: expect.any(Number) }]);
      const credentials = (await admin('get', `/admin/v1/credentials?developerId=${c.developer1.developerId}`).expect(200)).body.results;
      expect(credentials).toEqual([
        expect.objectContaining({ kind: 'developer-key', developerId: c.developer1.developerId, credentialId: expect.stringMatching(/^cred_/) }),
      ]);
      const everything = JSON.stringify({ portals, portal, developers, applications, installs, credentials });
      for (const secret of [c.portalKeyA, c.developer1.apiKey, c.appX.clientSecret, c.tokensAX.accessToken, c.tokensAX.refreshToken])
        expect(everything).not.toContain(secret);
    });

    it.each([
      ['an install of an unknown application', 404, () => admin('post', '/admin/v1/installs', { portalId: PORTAL_A, appId: 'nope' })],
      ['an install in an unknown portal', 404, () => admin('post', '/admin/v1/installs', { portalId: 424242, appId: c.appX.appId })],
      ['an install without appId', 400, () => admin('post', '/admin/v1/installs', { portalId: PORTAL_A })],
      ['an application of an unknown developer', 404, () => admin('post', '/admin/v1/apps', { developerId: 99, name: 'x' })],
      ['a key rotation of an unknown portal', 404, () => admin('post', '/admin/v1/portals/424242/api-key')],
      ['a portal id that is not a number', 400, () => admin('post', '/admin/v1/portals/abc/disable')],
      ['a credential listing without an owner', 400, () => admin('get', '/admin/v1/credentials')],
    ])('%s answers %i', async (_name, status, send) => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ status: 'error', message: expect.any(String) });
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After once a credential used its budget, and other credentials go on', async () => {
      const limited = await gateway({ rateLimit: { limit: 3, windowMs: 60_000 } });
      const call = (key: string) => request(limited).get(`${v1}/sync-status/CONTACT/c1?hapikey=${key}`);
      for (let i = 0; i < 3; i++) await call(c.portalKeyA).expect(200);
      const refused = await call(c.portalKeyA).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toEqual({ status: 'error', message: expect.stringMatching(/3 requests per 60 s/), requestId: expect.any(String) });
      await call(c.portalKeyB).expect(404); // not limited: B's own answer (it never sent c1 directly)
    });

    it("answers 429 once an install's access tokens together used its budget: a refresh gives no more", async () => {
      const limited = await gateway({ rateLimit: { limit: 3, windowMs: 60_000 } });
      const first = await tenantCredentials.install(PORTAL_B, c.appX.appId);
      const form = { grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: first.refreshToken };
      const second = (await request(limited).post('/oauth/v1/token').type('form').send(form).expect(200)).body.access_token as string;
      const call = (accessToken: string) => request(limited).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`);
      for (const accessToken of [first.accessToken, second, first.accessToken]) await call(accessToken).expect(200);
      const refused = await call(second).expect(429);
      expect(refused.body.message).toMatch(/this install's access tokens together may make 3 requests per 60 s/);
      await call(c.tokensAX.accessToken).expect(200); // another install's token counts apart
    });
  });
});
