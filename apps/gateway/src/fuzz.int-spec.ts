import fc from 'fast-check';
import request from 'supertest';
import { seedPortal } from '@ecomm-sync/test-harness';
import { fuzzBodies, fuzzRuns, fuzzSegment, type FuzzBody } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

type Method = 'put' | 'post' | 'patch' | 'delete';
type Credential = 'portal' | 'admin' | 'none';

/** Every write endpoint, with the credential it takes and the fields its body has. */
const ENDPOINTS: { method: Method; path: string; credential: Credential; fields?: string[]; reachesCrm?: boolean }[] = [
  { method: 'put', path: '/extensions/ecomm/v1/sync-messages/:seg', credential: 'portal', fields: ['integratorObjectId', 'action', 'changeOccurredTimestamp', 'propertyNameToValues'] },
  { method: 'put', path: '/extensions/ecomm/v2/sync/messages', credential: 'portal', fields: ['storeId', 'objectType', 'messages', 'externalObjectId', 'changedAt', 'properties', 'associations'] },
  { method: 'put', path: '/extensions/ecomm/v1/settings', credential: 'portal', fields: ['enabled', 'importOnInstall', 'contactSyncSettings', 'properties', 'propertyName', 'targetCrmProperty', 'dataType'] },
  { method: 'put', path: '/extensions/ecomm/v2/settings', credential: 'portal', fields: ['enabled', 'webhookUri', 'mappings', 'CONTACT', 'properties', 'externalPropertyName', 'crmPropertyName'] },
  { method: 'put', path: '/extensions/ecomm/v1/import-settings', credential: 'portal', fields: ['importTriggerUri'] },
  { method: 'put', path: '/extensions/ecomm/v2/stores', credential: 'portal', fields: ['id', 'label', 'adminUri'], reachesCrm: true },
  { method: 'delete', path: '/extensions/ecomm/v2/stores/:seg', credential: 'portal' },
  { method: 'post', path: '/extensions/ecomm/v1/installs', credential: 'portal', reachesCrm: true },
  { method: 'post', path: '/extensions/ecomm/v1/installs/uninstall', credential: 'portal' },
  { method: 'post', path: '/extensions/ecomm/v1/imports', credential: 'portal', fields: ['appId'] },
  { method: 'post', path: '/extensions/ecomm/v2/imports', credential: 'portal', fields: ['storeId'] },
  { method: 'post', path: '/extensions/ecomm/v2/imports/page', credential: 'portal', fields: ['importStartedAt', 'pageNumber', 'storeId', 'objectType', 'messages'] },
  { method: 'post', path: '/extensions/ecomm/v2/imports/end', credential: 'portal', fields: ['importStartedAt', 'storeId', 'objectType', 'pageCount', 'itemCount'] },
  { method: 'put', path: '/extensions/ecomm/v1/import-pages/:seg/:seg/:seg', credential: 'portal', fields: ['integratorObjectId', 'propertyNameToValues', 'pageCount', 'itemCount'] },
  { method: 'post', path: '/oauth/v1/token', credential: 'none', fields: ['grant_type', 'client_id', 'client_secret', 'refresh_token'] },
  { method: 'post', path: '/admin/v1/portals', credential: 'admin', fields: ['name', 'pipelineLimit'], reachesCrm: true },
  { method: 'patch', path: '/admin/v1/portals/:seg', credential: 'admin', fields: ['active', 'pipelineLimit'], reachesCrm: true },
  { method: 'post', path: '/admin/v1/portals/:seg/api-key', credential: 'admin' },
  { method: 'post', path: '/admin/v1/portals/:seg/private-apps', credential: 'admin', fields: ['name'] },
  { method: 'post', path: '/admin/v1/developers', credential: 'admin', fields: ['name'] },
  { method: 'post', path: '/admin/v1/developers/:seg/api-key', credential: 'admin' },
  { method: 'post', path: '/admin/v1/apps', credential: 'admin', fields: ['developerId', 'name'] },
  { method: 'post', path: '/admin/v1/apps/:seg/client-secret', credential: 'admin' },
  { method: 'post', path: '/admin/v1/installs', credential: 'admin', fields: ['portalId', 'appId'] },
  { method: 'delete', path: '/admin/v1/installs/:seg/:seg', credential: 'admin' },
  { method: 'delete', path: '/admin/v1/credentials/:seg', credential: 'admin' },
];

/**
 * The gateway under fuzzed requests (issue 17): every write endpoint, bodies of every shape, odd
 * path segments and content types. Never a 5xx (but the 502 of an endpoint whose CRM is away: the
 * fixture has none) and never a hang. A bounded run here; `npm run fuzz` sends 100,000 and more.
 */
describe('gateway under fuzzed requests (real MongoDB and RabbitMQ)', () => {
  let fixture: GatewayFixture;
  const portalKey = 'pk-fuzz-portal';

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-fuzz');
    await seedPortal(fixture.database.repositories, { portalId: 9101, apiKey: portalKey });
  });

  afterAll(() => fixture?.close());

  const send = (method: Method, path: string, credential: Credential, { contentType, contentEncoding, body }: FuzzBody) => {
    let call = request(fixture.app)[method](credential === 'portal' ? `${path}?hapikey=${portalKey}` : path).timeout(10_000);
    if (credential === 'admin') call = call.set('authorization', 'Bearer admin');
    if (contentType) call = call.set('content-type', contentType);
    if (contentEncoding) call = call.set('content-encoding', contentEncoding);
    return call.send(body);
  };

  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method.toUpperCase()} ${endpoint.path}`, endpoint] as const))(
    'when %s gets fuzzed bodies and paths, then it answers each with the error model and never a 5xx',
    async (_name, { method, path, credential, fields, reachesCrm }) => {
      await fc.assert(
        fc.asyncProperty(fc.array(fuzzSegment, { minLength: 3, maxLength: 3 }), fuzzBodies(fields), async (segments, body) => {
          let n = 0;
          const url = path.replace(/:seg/g, () => segments[n++]);
          const response = await send(method, url, credential, body);
          const allowed = response.status < 500 || (reachesCrm === true && response.status === 502);
          if (!allowed) throw new Error(`${method.toUpperCase()} ${url} answered ${response.status}: ${JSON.stringify(response.body)} to ${JSON.stringify(body).slice(0, 300)}`);
          if (response.status >= 400) expect(response.body).toMatchObject({ status: 'error', message: expect.any(String), requestId: expect.any(String) });
        }),
        { numRuns: fuzzRuns(25) },
      );
    },
    // Some endpoints wait for a CRM that is away (retries with backoff): time grows with the runs.
    60_000 + fuzzRuns(25) * 1_500,
  );
});
