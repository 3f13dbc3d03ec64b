import request from 'supertest';
import { aV1Contact, aV2Message, aV2Submission } from '@ecomm-sync/testing';
import { credentialsWorld, PORTAL_A, v1, v2, v2Settings, type CredentialsWorld } from './credentials-fixture';

/**
 * Issue 7: every endpoint with every kind of credential (SPEC.md "Authentication"), and the field
 * client that sends "Bearer undefined" beside its key. Another tenant's data, OAuth tokens, rotation,
 * the admin API and rate limits have specs of their own (credentials-*.int-spec.ts).
 */
describe('credentials and tenant isolation', () => {
  const w = credentialsWorld('test-credentials');
  let { app } = {} as CredentialsWorld;
  beforeAll(() => ({ app } = w));
  const { c } = w;

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
    // One portal at a time: a developer key names it (console-report.use-case.ts).
    ['console report', 'get', '/console/api/v1/report', undefined, [401, 401, 401, 200, 200, 400, 400, 200]],
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

  describe('the field client that sends Authorization: Bearer undefined', () => {
    it.each(['Bearer undefined', 'Bearer null', 'Bearer', 'Basic abc'])('accepts a valid hapikey with "%s"', async (header) => {
      await request(app).get(`${v1}/sync-status/CONTACT/c1?hapikey=${c.portalKeyA}`).set('authorization', header).expect(200);
    });

    it('refuses "Bearer undefined" alone with 401', async () => {
      const response = await request(app).get(`${v1}/sync-status/CONTACT/c1`).set('authorization', 'Bearer undefined').expect(401);
      expect(response.body.message).toMatch(/Missing credential/);
    });
  });

  describe('an API key in the X-Api-Key header (the console’s way: no key in URLs)', () => {
    it('when a portal key or a developer key comes in the header, then it is taken as hapikey is', async () => {
      await request(app).get(`${v1}/sync-status/CONTACT/c1`).set('x-api-key', c.portalKeyA).expect(200);
      await request(app).get(`${v2}/settings?appId=${c.appX.appId}`).set('x-api-key', c.developer1.apiKey).expect(200);
    });

    it('when the header holds a key nobody has, then it is refused with 401 like a wrong hapikey', async () => {
      const response = await request(app).get(`${v1}/sync-status/CONTACT/c1`).set('x-api-key', 'pk-not-a-key').expect(401);
      expect(response.body.message).toMatch(/^Invalid X-Api-Key header: no portal or developer account has this API key/);
    });

    it('when hapikey is given twice, then 400 says to send it once, even beside a valid X-Api-Key, but not beside a bearer token', async () => {
      const twice = `hapikey=${c.portalKeyA}&hapikey=${c.portalKeyA}`;
      const response = await request(app).get(`${v1}/sync-status/CONTACT/c1?${twice}`).set('x-api-key', c.portalKeyA).expect(400);
      expect(response.body.message).toBe('Query parameter hapikey must be given once, as text');
      await request(app).get(`${v1}/sync-status/CONTACT/c1?${twice}`).expect(400);
      await request(app).get(`${v1}/sync-status/CONTACT/c1?${twice}`).set('authorization', 'Bearer undefined').expect(400);
      // A real bearer token identifies the call: the key it carries beside is not read.
      await request(app).get(`${v1}/sync-status/CONTACT/c1?${twice}`).set('authorization', `Bearer ${c.privateAppA}`).expect(200);
    });

    it('when hapikey and the header both come, then hapikey is the one taken', async () => {
      await request(app).get(`${v1}/sync-status/CONTACT/c1?hapikey=${c.portalKeyA}`).set('x-api-key', 'pk-not-a-key').expect(200);
    });
  });
});
