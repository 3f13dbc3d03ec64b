import request from 'supertest';
import { gatewayOpenApiDocument, openApiBodyChecker } from '@ecomm-sync/contracts';
import { documentedOperations, expressRoutes, routeTableDifferences, seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

describe('gateway OpenAPI document', () => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture('gw-openapi');
  });
  afterAll(() => fixture.close());

  it('when the routes express serves are compared with the document, then each is in the other', () => {
    const served = expressRoutes(fixture.app);
    expect(served.length).toBeGreaterThan(60);
    const differences = routeTableDifferences(served, documentedOperations(gatewayOpenApiDocument()));
    expect(differences).toEqual({ undocumented: [], notServed: [] });
  });

  it('when a route is served but not documented, or documented but not served, then the comparison names it', async () => {
    const app = await fixture.gateway();
    app.get('/extensions/ecomm/v2/undocumented/:id', (_req, res) => res.end());
    const document = gatewayOpenApiDocument();
    delete document.paths['/extensions/ecomm/v2/stores/{storeId}'];
    const differences = routeTableDifferences(expressRoutes(app), documentedOperations(document));
    expect(differences.undocumented).toEqual(
      expect.arrayContaining([
        'GET /extensions/ecomm/v2/undocumented/{id}',
        'GET /extensions/ecomm/v2/stores/{storeId}',
        'DELETE /extensions/ecomm/v2/stores/{storeId}',
      ]),
    );
    expect(differences.notServed).toEqual([]);
    expect(routeTableDifferences([], documentedOperations(gatewayOpenApiDocument())).notServed).toContain('PUT /extensions/ecomm/v2/sync/messages');
  });

  it('when /openapi.json is read, then it is the OpenAPI 3.1 document with every credential scheme', async () => {
    const res = await request(fixture.app)
      .get('/openapi.json')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(gatewayOpenApiDocument())));
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual([
      'adminToken',
      'appId',
      'bearerToken',
      'developerKey',
      'developerKeyHeader',
      'oauthToken',
      'portalKey',
      'portalKeyHeader',
    ]);
    expect(res.body.components.securitySchemes.portalKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(res.body.paths['/extensions/ecomm/v1/settings'].get.security).toEqual([
      { portalKey: [] },
      { portalKeyHeader: [] },
      { bearerToken: [] },
      { developerKey: [], appId: [] },
      { developerKeyHeader: [], appId: [] },
    ]);
    expect(res.body.paths['/extensions/ecomm/v2/imports/page'].post.security).toEqual([{ oauthToken: [] }]);
    expect(res.body.paths['/admin/v1/portals'].post.security).toEqual([{ adminToken: [] }]);
    expect(res.body.paths['/extensions/ecomm/v2/sync/messages'].put.responses['400']).toEqual({ $ref: '#/components/responses/Error400' });
  });

  it('when /docs is opened, then Swagger UI comes from the npm package through the gateway, with no outside address', async () => {
    const page = await request(fixture.app).get('/docs').expect(200).expect('content-type', /html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/swagger-initializer.js']);
    for (const asset of scripts) await request(fixture.app).get(asset).expect(200);
    const initializer = await request(fixture.app).get('/docs/swagger-initializer.js');
    expect(initializer.text).toContain("url: '/openapi.json'");
  });

  it('when the gateway answers real requests, then each answer fits the document', async () => {
    const check = openApiBodyChecker(gatewayOpenApiDocument());
    const portalId = 4242; // the fixture's database is this spec's own
    const key = `pk-openapi-${portalId}`;
    await seedPortal(fixture.database.repositories, { portalId, apiKey: key });
    const settings = {
      enabled: true,
      webhookUri: 'https://shop.example.com/import',
      mappings: {
        CONTACT: { properties: [{ externalPropertyName: 'email', crmPropertyName: 'email' }] },
        DEAL: { properties: [{ externalPropertyName: 'dealstage', crmPropertyName: 'dealstage' }] },
      },
    };
    const calls: [method: 'get' | 'put', path: string, status: number, body?: unknown][] = [
      ['put', '/extensions/ecomm/v2/settings', 200, settings],
      ['get', '/extensions/ecomm/v2/settings', 200],
      ['get', '/extensions/ecomm/v1/settings?showProvidedProperties=true', 200],
      ['get', '/extensions/ecomm/v1/import-settings', 200],
      ['get', '/extensions/ecomm/v1/installs/status', 200],
      ['get', '/extensions/ecomm/v2/stores', 200],
      ['get', '/extensions/ecomm/v1/sync-errors', 200],
      ['get', '/extensions/ecomm/v2/sync/errors/portal', 200],
      ['get', '/extensions/ecomm/v2/sync/crm-health', 200],
      ['put', '/extensions/ecomm/v2/sync/messages', 400, { storeId: 'default', objectType: 'ORDER', messages: [] }],
      ['get', '/extensions/ecomm/v2/sync/status/default/DEAL/never-sent', 404],
    ];
    for (const [method, path, status, body] of calls) {
      const url = `${path}${path.includes('?') ? '&' : '?'}hapikey=${key}`;
      const answer = await request(fixture.app)
        [method](url)
        .send(body as object);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect({ path, problems: check({ kind: 'response', status: String(status), method, path, body: answer.body }) }).toEqual({ path, problems: [] });
    }
    const refused = await request(fixture.app).get('/extensions/ecomm/v2/stores').expect(401);
    expect(check({ kind: 'response', status: '401', method: 'GET', path: '/extensions/ecomm/v2/stores', body: refused.body })).toEqual([]);
  });
});
