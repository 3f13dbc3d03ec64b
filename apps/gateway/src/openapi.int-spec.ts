import request from 'supertest';
import { gatewayOpenApiDocument } from '@ecomm-sync/contracts';
import { documentedOperations, expressRoutes, routeTableDifferences } from '@ecomm-sync/testing';
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
    expect(differences.undocumented).toEqual(expect.arrayContaining(['GET /extensions/ecomm/v2/undocumented/{id}', 'GET /extensions/ecomm/v2/stores/{storeId}', 'DELETE /extensions/ecomm/v2/stores/{storeId}']));
    expect(differences.notServed).toEqual([]);
    expect(routeTableDifferences([], documentedOperations(gatewayOpenApiDocument())).notServed).toContain('PUT /extensions/ecomm/v2/sync/messages');
  });

  it('when /openapi.json is read, then it is the OpenAPI 3.1 document with every credential scheme', async () => {
    const res = await request(fixture.app).get('/openapi.json').expect(200).expect('content-type', /application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(gatewayOpenApiDocument())));
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['adminToken', 'appId', 'bearerToken', 'developerKey', 'oauthToken', 'portalKey']);
    expect(res.body.paths['/extensions/ecomm/v1/settings'].get.security).toEqual([{ portalKey: [] }, { bearerToken: [] }, { developerKey: [], appId: [] }]);
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
});
