import request from 'supertest';
import { seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const v2 = '/extensions/ecomm/v2';
const contact = { externalObjectId: 'side-by-side', action: 'UPSERT', properties: { email: 'ada@example.com' } };

/**
 * The store `default` of every installed tenant (issue 17, item 7; decision 27): v1 traffic goes
 * there, so v2 lists it and accepts it, also for tenants that installed through a v2 store before
 * the install made it (their data has a store of their own and no `default`).
 */
describe('the store default of installed tenants (real MongoDB and RabbitMQ)', () => {
  let fixture: GatewayFixture;
  let nextPortal = 9301;

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-stores');
  });

  afterAll(() => fixture?.close());

  /** A portal as a v2 install left it before the fix: installed, with its own store and no `default`. */
  async function portalInstalledThroughV2(): Promise<string> {
    const portalId = nextPortal++;
    const apiKey = `pk-stores-${portalId}`;
    await seedPortal(fixture.database.repositories, { portalId, apiKey });
    const tenant = { portalId, appId: null };
    await fixture.database.repositories.stores.upsert(tenant, { id: 'web', label: 'Web shop' });
    await fixture.database.repositories.ecommerceInstalls.markInstalled(tenant, Date.now());
    return apiKey;
  }

  it('when a tenant installed through a v2 store has no store default, then GET /v2/stores lists it and GET /v2/stores/default answers it', async () => {
    const key = await portalInstalledThroughV2();

    const listed = await request(fixture.app).get(`${v2}/stores?hapikey=${key}`).expect(200);
    expect(listed.body).toEqual({
      results: [
        { id: 'default', label: 'Custom' },
        { id: 'web', label: 'Web shop' },
      ],
    });
    await request(fixture.app).get(`${v2}/stores/default?hapikey=${key}`).expect(200, { id: 'default', label: 'Custom' });
  });

  it('when such a tenant sends v2 messages to the store default, then they are accepted as v1 traffic is', async () => {
    const key = await portalInstalledThroughV2();

    await request(fixture.app)
      .put(`${v2}/sync/messages?hapikey=${key}`)
      .send({ storeId: 'default', objectType: 'CONTACT', messages: [contact] })
      .expect(204);
  });

  it('when an installed tenant deletes the store default, then 409 says why and the store stays', async () => {
    const key = await portalInstalledThroughV2();

    const refused = await request(fixture.app).delete(`${v2}/stores/default?hapikey=${key}`).expect(409);
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringMatching(/v1 traffic.*uninstall/) });
    await request(fixture.app).get(`${v2}/stores/default?hapikey=${key}`).expect(200);
  });

  it('when a tenant has not installed, then it has no store default and v2 refuses it with 400', async () => {
    const portalId = nextPortal++;
    await seedPortal(fixture.database.repositories, { portalId, apiKey: `pk-stores-${portalId}` });
    const key = `pk-stores-${portalId}`;

    await request(fixture.app).get(`${v2}/stores?hapikey=${key}`).expect(200, { results: [] });
    await request(fixture.app).get(`${v2}/stores/default?hapikey=${key}`).expect(404);
    const refused = await request(fixture.app)
      .put(`${v2}/sync/messages?hapikey=${key}`)
      .send({ storeId: 'default', objectType: 'CONTACT', messages: [contact] })
      .expect(400);
    expect(refused.body.message).toMatch(/Unknown store "default"/);
  });
});
