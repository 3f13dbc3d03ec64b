import type { Express } from 'express';
import request from 'supertest';
import { aNewImport, seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8301;
const v1 = '/extensions/ecomm/v1';

/**
 * Decision 49: two gateway replicas on one database take pages and ends of the same import at
 * once. Each counts by compare-and-set on the import and decides again on a fresh read when it
 * lost, so no count is lost and no page slips in after its type's end.
 */
describe('one import, two gateway replicas (real MongoDB and RabbitMQ)', () => {
  let fixture: GatewayFixture;
  let replicas: [Express, Express];
  let accessToken: string;
  let developerId: string;

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-imports');
    replicas = [fixture.app, await fixture.gateway()];
    await seedPortal(fixture.database.repositories, { portalId: PORTAL, apiKey: 'pk-imports-portal' });
    const admin = (path: string, body: object) => request(fixture.app).post(path).set('authorization', 'Bearer admin').send(body).expect(201);
    const developer = (await admin('/admin/v1/developers', { name: 'Importer' })).body;
    developerId = developer.developerId;
    const { appId } = (await admin('/admin/v1/apps', { developerId: developer.developerId, name: 'Importer app' })).body;
    accessToken = (await admin('/admin/v1/installs', { portalId: PORTAL, appId })).body.accessToken;
    await request(fixture.app)
      .put(`${v1}/import-settings?hapikey=${developer.apiKey}&appId=${appId}`)
      .send({ importTriggerUri: 'https://shop.example.com/import' })
      .expect(200);
  });

  afterAll(() => fixture?.close());

  const as = (call: request.Test) => call.set('authorization', `Bearer ${accessToken}`);
  const startImport = async (): Promise<number> => (await as(request(fixture.app).post(`${v1}/imports`)).expect(201)).body.importStartedAt;
  const items = (page: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ integratorObjectId: `p${page}-${i}`, propertyNameToValues: { n: String(i) } }));
  const putPage = (on: Express, importStartedAt: number, page: number, count: number) =>
    as(request(on).put(`${v1}/import-pages/${importStartedAt}/CONTACT/${page}`)).send(items(page, count));
  const end = (on: Express, importStartedAt: number, pageCount: number, itemCount: number) =>
    as(request(on).put(`${v1}/import-pages/${importStartedAt}/CONTACT/end`)).send({ pageCount, itemCount });
  const contacts = async (importStartedAt: number) =>
    (await as(request(fixture.app).get(`${v1}/imports/${importStartedAt}`)).expect(200)).body.objectTypes.CONTACT;

  it('when a page sends its messages’ properties as null, then it is taken and kept with none (decision 60)', async () => {
    const importStartedAt = await startImport();
    const page = [{ integratorObjectId: 'nulls-1', propertyNameToValues: null }, { integratorObjectId: 'nulls-2' }];
    await as(request(fixture.app).put(`${v1}/import-pages/${importStartedAt}/CONTACT/0`))
      .send(page)
      .expect(200);
    const stored = await as(request(fixture.app).get(`${v1}/import-pages/${importStartedAt}/CONTACT/0`)).expect(200);
    expect(stored.body).toEqual([
      { integratorObjectId: 'nulls-1', propertyNameToValues: {} },
      { integratorObjectId: 'nulls-2', propertyNameToValues: {} },
    ]);
  });

  it('when a type ends on an empty page (SPEC.md: up to 500 messages), then the page is taken, counted with no items, and the end matches', async () => {
    const importStartedAt = await startImport();
    await putPage(fixture.app, importStartedAt, 0, 2).expect(200);
    await putPage(fixture.app, importStartedAt, 1, 0).expect(200, []);

    expect(await contacts(importStartedAt)).toMatchObject({ pagesReceived: 2, itemsReceived: 2, ended: false });
    expect((await end(fixture.app, importStartedAt, 2, 2)).status).toBe(204);
  });

  it('when 24 pages of one type arrive at once across both replicas, then every page and every item is counted, and the end matches', async () => {
    const importStartedAt = await startImport();
    const pages = Array.from({ length: 24 }, (_, page) => page);

    const answers = await Promise.all(pages.map((page) => putPage(replicas[page % 2], importStartedAt, page, page + 1)));

    expect(answers.map((answer) => answer.status)).toEqual(pages.map(() => 200));
    expect(await contacts(importStartedAt)).toMatchObject({ pagesReceived: 24, itemsReceived: 300, ended: false });
    expect((await end(replicas[1], importStartedAt, 24, 300)).status).toBe(204);
  });

  it('when a page and the end of its type arrive at once on the two replicas, then either the end counted the page or the page is refused', async () => {
    for (let round = 0; round < 6; round++) {
      const importStartedAt = await startImport();
      await putPage(replicas[0], importStartedAt, 0, 2).expect(200);

      const [page, ended] = await Promise.all([putPage(replicas[round % 2], importStartedAt, 1, 3), end(replicas[(round + 1) % 2], importStartedAt, 1, 2)]);

      const outcome = `page ${page.status}, end ${ended.status}`;
      expect(['page 409, end 204', 'page 200, end 400']).toContain(outcome);
      expect(await contacts(importStartedAt)).toMatchObject(
        outcome === 'page 409, end 204' ? { pagesReceived: 1, itemsReceived: 2, ended: true } : { pagesReceived: 2, itemsReceived: 5, ended: false },
      );
    }
  });

  it('when a portal key reads or starts an import of an application removed from the portal, then it is a 404, not the import', async () => {
    const admin = (call: request.Test) => call.set('authorization', 'Bearer admin');
    const { appId } = (await admin(request(fixture.app).post('/admin/v1/apps')).send({ developerId, name: 'Removed app' }).expect(201)).body;
    await admin(request(fixture.app).post('/admin/v1/installs')).send({ portalId: PORTAL, appId }).expect(201);
    const tenant = { portalId: PORTAL, appId };
    await fixture.database.repositories.imports.create(
      aNewImport({ tenant, importStartedAt: 1_700_000_000_000, webhookUri: 'https://shop.example.com/secret-import' }),
    );
    const read = () => request(fixture.app).get(`${v1}/imports/1700000000000?hapikey=pk-imports-portal&appId=${appId}`);
    expect((await read().expect(200)).body.webhook.uri).toBe('https://shop.example.com/secret-import');

    await admin(request(fixture.app).delete(`/admin/v1/installs/${PORTAL}/${appId}`)).expect(204);

    const refused = await read().expect(404);
    expect(refused.body.message).toBe(
      `Application ${appId} is not installed in portal ${PORTAL}; use the appId of an application installed in it (GET /console/api/v1/installs lists them)`,
    );
    expect(JSON.stringify(refused.body)).not.toContain('secret-import');
    await request(fixture.app).post(`${v1}/imports?hapikey=pk-imports-portal&appId=${appId}`).expect(404);
  });
});
