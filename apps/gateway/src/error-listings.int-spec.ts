import request from 'supertest';
import type { Database } from '@ecomm-sync/data-access';
import type { Express } from 'express';
import { seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

describe('error listings by portal, application and object', () => {
  let fixture: GatewayFixture;
  let database: Database;
  let app: Express;
  let developerKey: string;
  let otherDeveloperKey: string;
  let appId: string;
  const portalKey = 'pk-listings-1';
  const otherPortalKey = 'pk-listings-2';

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-listings');
    ({ database, app } = fixture);
    const admin = (path: string, body: object) => request(app).post(path).set('authorization', 'Bearer admin').send(body).expect(201);
    const developer = (await admin('/admin/v1/developers', {})).body;
    developerKey = developer.apiKey;
    otherDeveloperKey = (await admin('/admin/v1/developers', {})).body.apiKey;
    appId = (await admin('/admin/v1/apps', { developerId: developer.developerId, name: 'Connector' })).body.appId;
    await seedPortal(database.repositories, { portalId: 7001, apiKey: portalKey });
    await seedPortal(database.repositories, { portalId: 7002, apiKey: otherPortalKey });
    // The developer's listings read the portals that have the application installed now.
    for (const portalId of [7001, 7002]) await admin('/admin/v1/installs', { portalId, appId });
    const record = (portalId: number, appIdOf: string | null, externalObjectId: string, erroredAt: number) =>
      database.repositories.syncErrors.record({ tenant: { portalId, appId: appIdOf }, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId, rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS', details: `bad ${externalObjectId}`, changedAt: 1, erroredAt },
      ]);
    await record(7001, null, 'direct-1', 100);
    await record(7001, appId, 'app-in-7001', 200);
    await record(7002, appId, 'app-in-7002', 300);
    await record(7002, null, 'other-portal', 400);
  });

  afterAll(() => fixture.close());

  const ids = (body: { results: { integratorObjectId?: string; externalObjectId?: string }[] }) =>
    body.results.map((e) => e.integratorObjectId ?? e.externalObjectId);

  it('lists an application’s errors across its portals, for the developer who owns it (v1 and v2)', async () => {
    expect(ids((await request(app).get(`/extensions/ecomm/v1/sync-errors/app/${appId}?hapikey=${developerKey}`).expect(200)).body)).toEqual([
      'app-in-7002',
      'app-in-7001',
    ]);
    const v2 = await request(app).get(`/extensions/ecomm/v2/sync/errors/app/${appId}?hapikey=${developerKey}&limit=1`).expect(200);
    expect(ids(v2.body)).toEqual(['app-in-7002']);
    expect(v2.body.paging.next.page).toBe('2');
    expect(ids((await request(app).get(`/extensions/ecomm/v2/sync/errors/app/${appId}?hapikey=${developerKey}&limit=1&page=2`).expect(200)).body)).toEqual([
      'app-in-7001',
    ]);
  });

  it.each([
    ['a forged scheme and host', { 'x-forwarded-proto': 'javascript', host: 'evil.example.com"><script>' }],
    ['a forged plain host', { host: 'evil.example.com' }],
    [
      'forwarded headers from a peer that is not a configured proxy',
      { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example.com', host: 'evil.example.com' },
    ],
  ])('when no public URL is configured and the request carries %s, then the next-page link is a path that echoes none of it', async (_case, headers) => {
    const response = await request(app).get(`/extensions/ecomm/v2/sync/errors/app/${appId}?hapikey=${developerKey}&limit=1`).set(headers).expect(200);
    expect(response.body.paging.next.link).toBe(`/extensions/ecomm/v2/sync/errors/app/${appId}?limit=1&page=2`);
  });

  it.each([
    ['https://sync.example.com', 'https://sync.example.com/extensions'],
    ['https://example.com/sync/', 'https://example.com/sync/extensions'],
  ])('when the public URL %s is configured, then next-page links are built from it, whatever the request says', async (publicUrl, start) => {
    const configured = await fixture.gateway({ publicUrl });
    const response = await request(configured)
      .get(`/extensions/ecomm/v2/sync/errors/app/${appId}?hapikey=${developerKey}&limit=1`)
      .set({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example.com', host: 'evil.example.com' })
      .expect(200);
    expect(response.body.paging.next.link).toBe(`${start}/ecomm/v2/sync/errors/app/${appId}?limit=1&page=2`);
  });

  it('when no proxies are configured, then no peer’s X-Forwarded-* headers are believed', () => {
    expect(app.get('trust proxy fn')('127.0.0.1', 0)).toBe(false);
  });

  it('lists a portal’s errors by its id, all applications included, with the portal’s key', async () => {
    expect(ids((await request(app).get(`/extensions/ecomm/v2/sync/errors/portal/7001?hapikey=${portalKey}`).expect(200)).body)).toEqual([
      'app-in-7001',
      'direct-1',
    ]);
    expect(ids((await request(app).get(`/extensions/ecomm/v1/sync-errors/portal/7001?hapikey=${portalKey}`).expect(200)).body)).toEqual([
      'app-in-7001',
      'direct-1',
    ]);
    // The id is a number: written with a leading zero it is the same portal.
    await request(app).get(`/extensions/ecomm/v2/sync/errors/portal/07001?hapikey=${portalKey}`).expect(200);
  });

  it('lists one object’s errors, resolved ones on request', async () => {
    await database.repositories.syncErrors.resolve({ tenant: { portalId: 7001, appId: null }, storeId: 'default', objectType: 'CONTACT' }, ['direct-1'], 500);
    expect((await request(app).get(`/extensions/ecomm/v1/sync-errors/object/CONTACT/direct-1?hapikey=${portalKey}`).expect(200)).body).toEqual({ results: [] });
    const all = await request(app).get(`/extensions/ecomm/v1/sync-errors/object/CONTACT/direct-1?hapikey=${portalKey}&showResolvedErrors=true`).expect(200);
    expect(all.body.results).toEqual([expect.objectContaining({ integratorObjectId: 'direct-1', status: 'RESOLVED', type: 'INVALID_EMAIL_ADDRESS' })]);
  });

  it('pages one object’s errors with limit and offset, at most 200 a page', async () => {
    const scope = { tenant: { portalId: 7001, appId: null }, storeId: 'default', objectType: 'CONTACT' as const };
    const base = { externalObjectId: 'paged-1', settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS' as const, details: 'bad', changedAt: 1 };
    for (let rev = 1; rev <= 3; rev++) await database.repositories.syncErrors.record(scope, [{ ...base, rev, erroredAt: 1_000 + rev }]);
    const object = `/extensions/ecomm/v1/sync-errors/object/CONTACT/paged-1?hapikey=${portalKey}&showResolvedErrors=true`;

    const second = await request(app).get(`${object}&limit=1&offset=1`).expect(200);
    expect(second.body.results.map((error: { errorTimestamp: number }) => error.errorTimestamp)).toEqual([1_002]);
    expect((await request(app).get(`${object}&limit=201`).expect(400)).body.message).toMatch(/limit/);
  });

  it.each([
    ['another portal’s id', 403, () => request(app).get(`/extensions/ecomm/v2/sync/errors/portal/7002?hapikey=${portalKey}`)],
    ['another developer’s application', 404, () => request(app).get(`/extensions/ecomm/v1/sync-errors/app/${appId}?hapikey=${otherDeveloperKey}`)],
    ['a portal key for application errors', 403, () => request(app).get(`/extensions/ecomm/v2/sync/errors/app/${appId}?hapikey=${portalKey}`)],
    ['no credential for application errors', 401, () => request(app).get(`/extensions/ecomm/v2/sync/errors/app/${appId}`)],
    ['an unknown object type', 400, () => request(app).get(`/extensions/ecomm/v1/sync-errors/object/ORDER/x?hapikey=${portalKey}`)],
    ['a portal id that is not a number', 400, () => request(app).get(`/extensions/ecomm/v2/sync/errors/portal/abc?hapikey=${portalKey}`)],
    ['a v1 portal id that is not a number', 400, () => request(app).get(`/extensions/ecomm/v1/sync-errors/portal/7001x?hapikey=${portalKey}`)],
  ])('refuses %s with %i', async (_name, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ status: 'error', message: expect.any(String) });
  });
});
