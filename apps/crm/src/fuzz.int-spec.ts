import fc from 'fast-check';
import mongoose, { type Connection } from 'mongoose';
import request from 'supertest';
import { createLogger } from '@ecomm-sync/logger';
import { fuzzBodies, fuzzRuns, fuzzSegment, testInfrastructure, uniqueName, type FuzzBody } from '@ecomm-sync/testing';
import { createCrmApp } from './app';
import { CrmStore } from './data-access/crm-store';

type Method = 'put' | 'post' | 'patch' | 'delete';

/** Every write endpoint of the built-in CRM, with the fields its body has. */
const ENDPOINTS: { method: Method; path: string; admin?: boolean; fields?: string[] }[] = [
  { method: 'post', path: '/crm/v3/objects/:seg/batch/create', fields: ['inputs', 'properties', 'email', 'dealstage'] },
  { method: 'post', path: '/crm/v3/objects/:seg/batch/update', fields: ['inputs', 'id', 'properties'] },
  { method: 'post', path: '/crm/v3/objects/:seg/batch/upsert', fields: ['inputs', 'id', 'idProperty', 'properties'] },
  { method: 'post', path: '/crm/v3/objects/:seg/batch/archive', fields: ['inputs', 'id'] },
  { method: 'post', path: '/crm/v3/objects/:seg/batch/read', fields: ['inputs', 'id', 'properties'] },
  { method: 'post', path: '/crm/v3/objects/:seg/search', fields: ['filterGroups', 'filters', 'propertyName', 'operator', 'value', 'values', 'limit', 'after'] },
  { method: 'post', path: '/crm/v3/properties/:seg', fields: ['name', 'label', 'type', 'hasUniqueValue'] },
  { method: 'delete', path: '/crm/v3/properties/:seg/:seg' },
  { method: 'post', path: '/crm/v3/pipelines/deals', fields: ['id', 'label', 'displayOrder', 'stages'] },
  { method: 'patch', path: '/crm/v3/pipelines/deals/:seg', fields: ['label', 'displayOrder', 'stages'] },
  { method: 'delete', path: '/crm/v3/pipelines/deals/:seg' },
  { method: 'post', path: '/crm/v4/associations/:seg/:seg/batch/associate/default', fields: ['inputs', 'from', 'to', 'id'] },
  { method: 'put', path: '/crm/admin/v1/accounts/:seg', admin: true, fields: ['token', 'pipelineLimit'] },
  { method: 'put', path: '/crm/admin/v1/accounts/:seg/limits', admin: true, fields: ['burstPer10s', 'intervalMs', 'dailyCap', 'timeZone', 'searchPerSecond', 'invalidMarker'] },
  { method: 'post', path: '/crm/admin/v1/accounts/:seg/limits/reset-daily', admin: true, fields: ['nextResetAt'] },
];

/** The built-in CRM under fuzzed requests (issue 17): never a 5xx, never a hang. `npm run fuzz` runs it long. */
describe('built-in CRM under fuzzed requests (real MongoDB)', () => {
  let connection: Connection;
  let app: ReturnType<typeof createCrmApp>;
  const token = 'token-of-the-fuzzed-portal';

  beforeAll(async () => {
    connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName('crm_fuzz').replace(/-/g, '_') }).asPromise();
    const store = new CrmStore(connection);
    await store.createIndexes();
    app = createCrmApp({ store, logger: createLogger('crm-fuzz', 'error'), adminToken: 'admin-token', defaultPipelineLimit: 2, bodyLimit: '1mb', ready: () => true });
    await request(app).put('/crm/admin/v1/accounts/900').set('authorization', 'Bearer admin-token').send({ token }).expect(200);
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  const send = (method: Method, path: string, admin: boolean, { contentType, contentEncoding, body }: FuzzBody) => {
    let call = request(app)[method](path).timeout(10_000).set('authorization', `Bearer ${admin ? 'admin-token' : token}`);
    if (contentType) call = call.set('content-type', contentType);
    if (contentEncoding) call = call.set('content-encoding', contentEncoding);
    return call.send(body);
  };

  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method.toUpperCase()} ${endpoint.path}`, endpoint] as const))(
    'when %s gets fuzzed bodies and paths, then it answers each with the error model and never a 5xx',
    async (_name, { method, path, admin, fields }) => {
      await fc.assert(
        fc.asyncProperty(fc.array(fuzzSegment, { minLength: 2, maxLength: 2 }), fuzzBodies(fields), async (segments, body) => {
          let n = 0;
          const url = path.replace(/:seg/g, () => segments[n++]);
          const response = await send(method, url, admin === true, body);
          if (response.status >= 500) throw new Error(`${method.toUpperCase()} ${url} answered ${response.status}: ${JSON.stringify(response.body)} to ${JSON.stringify(body).slice(0, 300)}`);
        }),
        { numRuns: fuzzRuns(25) },
      );
    },
    // Some endpoints wait for a CRM that is away (retries with backoff): time grows with the runs.
    60_000 + fuzzRuns(25) * 1_500,
  );
});
