import request from 'supertest';
import type { ConsoleImportSummary } from '@ecomm-sync/contracts';
import { aNewImport, gatewayCredentials, moveImport } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8311;
const OTHER_PORTAL = 8312;

/**
 * Issue 30, item 8: an import started through the API can be found in the console. GET
 * /console/api/v1/imports lists the imports within the credential's scope, newest first, paged,
 * each with its store, application, state, counts and times.
 */
describe("the console's list of imports", () => {
  let fixture: GatewayFixture;
  const c = {} as { portalKey: string; developerKey: string; appId: string; otherAppId: string; accessToken: string };

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console-imports');
    const credentials = gatewayCredentials(fixture.app, fixture.database.repositories);
    c.portalKey = 'pk-console-imports';
    await credentials.portal(PORTAL, c.portalKey);
    await credentials.portal(OTHER_PORTAL, 'pk-console-imports-other');
    const developer = await credentials.developer('Importer');
    c.developerKey = developer.apiKey;
    c.appId = (await credentials.app(developer.developerId, 'Shop connector')).appId;
    c.otherAppId = (await credentials.app((await credentials.developer('Another')).developerId, 'Other')).appId;
    c.accessToken = (await credentials.install(PORTAL, c.appId)).accessToken;
    await credentials.install(PORTAL, c.otherAppId);
    await credentials.install(OTHER_PORTAL, c.appId);

    const { imports } = fixture.database.repositories;
    const create = async (portalId: number, appId: string, storeId: string, importStartedAt: number) =>
      (await imports.create(aNewImport({ tenant: { portalId, appId }, storeId, importStartedAt, createdAt: importStartedAt })))!;
    const web = await create(PORTAL, c.appId, 'web', 1_700_000_001_000);
    // The application said how many of each it would send, sent 3 contacts, ended every type: complete.
    await moveImport(
      imports,
      web.importId,
      { kind: 'start-announced' },
      { kind: 'webhook-answered', importCounts: [1, 2, 3, 4].map((settingsId) => ({ settingsId, count: settingsId })), at: Date.now() },
      { kind: 'page-received', objectType: 'CONTACT', pageNumber: 1, itemCount: 3 },
      ...(['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'] as const).map((objectType) => ({
        kind: 'end-received' as const,
        objectType,
        pageCount: objectType === 'CONTACT' ? 1 : 0,
        itemCount: objectType === 'CONTACT' ? 3 : 0,
        at: 1_700_000_009_000,
      })),
    );
    const failed = await create(PORTAL, c.appId, 'default', 1_700_000_002_000);
    await moveImport(imports, failed.importId, { kind: 'failed', reason: 'the import address answered 500', at: Date.now() });
    await create(PORTAL, c.otherAppId, 'default', 1_700_000_003_000);
    await create(OTHER_PORTAL, c.appId, 'default', 1_700_000_004_000);
  });

  afterAll(() => fixture?.close());

  const list = (query: string, as: { bearer?: string } = {}) => {
    const sent = request(fixture.app).get(`/console/api/v1/imports?${query}`);
    return as.bearer ? sent.set('authorization', `Bearer ${as.bearer}`) : sent;
  };
  const rows = (body: { results: ConsoleImportSummary[] }) => body.results.map((found) => [found.appId, found.storeId, found.status]);

  it("when a portal key lists imports, then every application's imports of the portal come, newest first, with state, counts and times", async () => {
    const { body } = await list(`hapikey=${c.portalKey}`).expect(200);
    expect(rows(body)).toEqual([
      [c.otherAppId, 'default', 'initialized'],
      [c.appId, 'default', 'failed'],
      [c.appId, 'web', 'complete'],
    ]);
    expect(body).toMatchObject({ offset: 0, limit: 20, hasMore: false });
    expect(body.results[1]).toMatchObject({ failureReason: 'the import address answered 500', completedAt: null, itemsReceived: 0 });
    expect(body.results[2]).toEqual({
      portalId: PORTAL,
      appId: c.appId,
      storeId: 'web',
      importStartedAt: 1_700_000_001_000,
      status: 'complete',
      failureReason: null,
      completedAt: 1_700_000_009_000,
      releasedAt: null,
      releaseProblem: null,
      itemsReceived: 3,
      expectedCount: 10,
      objectTypes: expect.objectContaining({ CONTACT: { settingsId: 1, expectedCount: 1, pagesReceived: 1, itemsReceived: 3, ended: true } }),
    });
  });

  it('when the list is paged, then each page continues where the last stopped and says whether more follow', async () => {
    const first = (await list(`hapikey=${c.portalKey}&limit=2`).expect(200)).body;
    const second = (await list(`hapikey=${c.portalKey}&limit=2&offset=2`).expect(200)).body;
    expect([rows(first).length, first.hasMore, rows(second), second.hasMore]).toEqual([2, true, [[c.appId, 'web', 'complete']], false]);
  });

  it("when an application's OAuth token lists imports, then only its own in that portal come, whatever owner is asked", async () => {
    const { body } = await list('owner=direct', { bearer: c.accessToken }).expect(200);
    expect(rows(body)).toEqual([
      [c.appId, 'default', 'failed'],
      [c.appId, 'web', 'complete'],
    ]);
  });

  it("when a portal key lists one owner's imports, then only that application's come, and direct use has none", async () => {
    expect(rows((await list(`hapikey=${c.portalKey}&owner=${c.otherAppId}`).expect(200)).body)).toEqual([[c.otherAppId, 'default', 'initialized']]);
    expect((await list(`hapikey=${c.portalKey}&owner=direct`).expect(200)).body.results).toEqual([]);
  });

  it("when an integrator lists imports, then its application's imports in every portal that has it come, and no other application's", async () => {
    const { body } = await list(`hapikey=${c.developerKey}&appId=${c.appId}`).expect(200);
    expect(body.results.map((found: ConsoleImportSummary) => [found.portalId, found.appId])).toEqual([
      [OTHER_PORTAL, c.appId],
      [PORTAL, c.appId],
      [PORTAL, c.appId],
    ]);
  });

  it.each([
    ['another portal with a portal key', 403, () => `hapikey=${c.portalKey}&portalId=${OTHER_PORTAL}`],
    ['a limit over 100', 400, () => `hapikey=${c.portalKey}&limit=101`],
    ['no credential', 401, () => ''],
  ])('when imports are listed with %s, then it answers %i', async (_name, status, query) => {
    await list(query()).expect(status);
  });
});
