import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose, { type Connection } from 'mongoose';
import request from 'supertest';
import { createLogger } from '@ecomm-sync/runtime';
import { assertEndpointSurvivesFuzz, fuzzRuns, testInfrastructure, uniqueName, type FuzzTarget } from '@ecomm-sync/testing';
import { createCrmApp } from './app';
import { CrmStore } from './data-access/crm-store';

/** Every write endpoint of the built-in CRM, with the fields its body has. */
const ENDPOINTS: (Pick<FuzzTarget, 'method' | 'path' | 'fields'> & { admin?: boolean; oauth?: boolean })[] = [
  {
    method: 'POST',
    path: '/crm/v3/objects/:seg/batch/create',
    fields: ['inputs', 'properties', 'email', 'dealstage', 'associations', 'to', 'id', 'types', 'associationTypeId'],
  },
  { method: 'POST', path: '/crm/v3/objects/:seg', fields: ['properties', 'associations', 'to', 'id', 'types', 'associationCategory', 'associationTypeId'] },
  { method: 'POST', path: '/crm/v3/objects/:seg/batch/update', fields: ['inputs', 'id', 'properties'] },
  { method: 'POST', path: '/crm/v3/objects/:seg/batch/upsert', fields: ['inputs', 'id', 'idProperty', 'properties'] },
  { method: 'POST', path: '/crm/v3/objects/:seg/batch/archive', fields: ['inputs', 'id'] },
  { method: 'POST', path: '/crm/v3/objects/:seg/batch/read', fields: ['inputs', 'id', 'properties', 'idProperty'] },
  { method: 'POST', path: '/crm/v3/objects/:seg/search', fields: ['filterGroups', 'filters', 'propertyName', 'operator', 'value', 'values', 'limit', 'after'] },
  { method: 'POST', path: '/crm/v3/properties/:seg', fields: ['name', 'label', 'type', 'fieldType', 'groupName', 'hasUniqueValue', 'options'] },
  { method: 'POST', path: '/crm/v3/properties/:seg/groups', fields: ['name', 'label', 'displayOrder'] },
  { method: 'DELETE', path: '/crm/v3/properties/:seg/:seg' },
  { method: 'POST', path: '/crm/v3/pipelines/deals', fields: ['label', 'displayOrder', 'stages', 'metadata', 'probability'] },
  { method: 'POST', path: '/crm/v3/pipelines/deals/:seg/stages', fields: ['label', 'displayOrder', 'metadata', 'probability', 'isClosed'] },
  { method: 'PATCH', path: '/crm/v3/pipelines/deals/:seg/stages/:seg', fields: ['label', 'displayOrder', 'metadata', 'archived'] },
  { method: 'PATCH', path: '/crm/v3/pipelines/deals/:seg', fields: ['label', 'displayOrder', 'stages'] },
  { method: 'DELETE', path: '/crm/v3/pipelines/deals/:seg' },
  { method: 'POST', path: '/crm/v4/associations/:seg/:seg/batch/associate/default', fields: ['inputs', 'from', 'to', 'id'] },
  {
    method: 'POST',
    path: '/crm/v4/associations/:seg/:seg/batch/create',
    fields: ['inputs', 'from', 'to', 'id', 'types', 'associationCategory', 'associationTypeId'],
  },
  { method: 'POST', path: '/crm/v4/associations/:seg/:seg/batch/labels/archive', fields: ['inputs', 'from', 'to', 'id', 'types', 'associationTypeId'] },
  { method: 'POST', path: '/crm/v4/associations/:seg/:seg/labels', fields: ['name', 'label', 'inverseLabel'] },
  { method: 'PUT', path: '/crm/admin/v1/accounts/:seg', admin: true, fields: ['token', 'pipelineLimit'] },
  {
    method: 'PUT',
    path: '/crm/admin/v1/accounts/:seg/limits',
    admin: true,
    fields: ['burstPer10s', 'intervalMs', 'dailyCap', 'timeZone', 'searchPerSecond', 'invalidMarker'],
  },
  { method: 'POST', path: '/crm/admin/v1/accounts/:seg/limits/reset-daily', admin: true, fields: ['nextResetAt'] },
  { method: 'POST', path: '/crm/admin/v1/accounts/:seg/oauth-grants', admin: true, fields: ['clientId', 'clientSecret'] },
  // The hosted CRM's OAuth refusals name themselves in `status` (BAD_CLIENT_ID, …) instead of "error".
  { method: 'POST', path: '/oauth/v1/token', oauth: true, fields: ['grant_type', 'client_id', 'client_secret', 'refresh_token'] },
];

const BOUNDED_BODIES = 24;

/**
 * The built-in CRM under fuzzed requests (issue 17), several at a time over keep-alive connections:
 * never a 5xx, never a hang. `npm run fuzz` runs it long.
 */
describe('built-in CRM under fuzzed requests (real MongoDB)', () => {
  let connection: Connection;
  let server: Server;
  let baseUrl: string;
  const token = 'token-of-the-fuzzed-portal';

  beforeAll(async () => {
    connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName('crm_fuzz').replace(/-/g, '_') }).asPromise();
    const store = new CrmStore(connection);
    await store.createIndexes();
    const app = createCrmApp({
      store,
      logger: createLogger('crm-fuzz', 'error'),
      adminToken: 'admin-token',
      defaultPipelineLimit: 2,
      bodyLimit: '1mb',
      ready: () => true,
    });
    await request(app).put('/crm/admin/v1/accounts/900').set('authorization', 'Bearer admin-token').send({ token }).expect(200);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await connection?.dropDatabase();
    await connection?.close();
  });

  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    'when %s gets fuzzed bodies and paths, then it answers each with the error model and never a 5xx',
    async (_name, { method, path, admin, oauth, fields }) => {
      const target: FuzzTarget = {
        method,
        path,
        fields,
        headers: { authorization: `Bearer ${admin ? 'admin-token' : token}` },
        checkError: (body) =>
          expect(body).toMatchObject({
            status: oauth ? expect.stringMatching(/^(error|BAD_[A-Z_]+)$/) : 'error',
            message: expect.any(String),
            requestId: expect.any(String),
          }),
      };
      await assertEndpointSurvivesFuzz(baseUrl, target, { bodies: fuzzRuns(BOUNDED_BODIES) });
    },
    60_000 + fuzzRuns(BOUNDED_BODIES) * 100,
  );
});
