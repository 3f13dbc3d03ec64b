import mongoose from 'mongoose';
import request from 'supertest';
import { createLogger } from '@ecomm-sync/runtime';
import { documentedOperations, expressRoutes, routeTableDifferences } from '@ecomm-sync/testing';
import { createCrmApp } from './app';
import { CrmStore } from './data-access/crm-store';
import { crmOpenApiDocument } from './entry-points/crm-openapi';

describe('built-in CRM OpenAPI document', () => {
  // The routes are listed and the document served without touching the database: a connection that never opens.
  const connection = mongoose.createConnection();
  const app = createCrmApp({
    store: new CrmStore(connection),
    logger: createLogger('crm-test', 'error'),
    adminToken: 'admin-token',
    defaultPipelineLimit: 2,
    bodyLimit: '1mb',
    ready: () => true,
  });
  afterAll(() => connection.close());

  it('when the routes express serves are compared with the document, then each is in the other', () => {
    const served = expressRoutes(app);
    expect(served.length).toBeGreaterThan(20);
    expect(routeTableDifferences(served, documentedOperations(crmOpenApiDocument()))).toEqual({ undocumented: [], notServed: [] });
  });

  it('when /openapi.json and /docs are read, then they are the CRM document and its page', async () => {
    const res = await request(app).get('/openapi.json').expect(200);
    expect(res.body.info.title).toBe('ecomm-sync built-in CRM');
    expect(res.body.paths['/crm/v3/objects/{type}/batch/create'].post.security).toEqual([{ crmToken: [] }]);
    expect(res.body.paths['/crm/admin/v1/accounts/{portalId}'].put.security).toEqual([{ adminToken: [] }]);
    await request(app).get('/docs').expect(200).expect('content-type', /html/);
  });

  it('when the OAuth operations are read, then the token endpoint takes a form without credential and documents the hosted CRM’s error body', () => {
    const document = crmOpenApiDocument();
    const token = document.paths['/oauth/v1/token'].post as { security: unknown; requestBody: { content: object }; responses: Record<string, unknown> };

    expect(token.security).toEqual([]);
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(token.responses['400']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/CrmOauthError' } } } });
    expect(document.paths['/crm/admin/v1/accounts/{portalId}/oauth-grants'].post).toMatchObject({ security: [{ adminToken: [] }] });
  });
});
