import request from 'supertest';
import { seedPortal, waitFor } from '@ecomm-sync/testing';
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
    return (await aPortalInstalledThroughV2()).apiKey;
  }

  async function aPortalInstalledThroughV2(): Promise<{ portalId: number; apiKey: string }> {
    const portalId = nextPortal++;
    const apiKey = `pk-stores-${portalId}`;
    await seedPortal(fixture.database.repositories, { portalId, apiKey });
    const tenant = { portalId, appId: null };
    await fixture.database.repositories.stores.upsert(tenant, { id: 'web', label: 'Web shop' });
    await fixture.database.repositories.ecommerceInstalls.markInstalled(tenant, Date.now());
    return { portalId, apiKey };
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

  it('when a store is PUT with an admin address that is not a URI, then the 400 says null may be sent instead', async () => {
    const key = await portalInstalledThroughV2();

    const refused = await request(fixture.app).put(`${v2}/stores?hapikey=${key}`).send({ id: 'eu', label: 'EU', adminUri: 'admin' }).expect(400);
    expect(refused.body.message).toBe('body/adminUri must be an absolute http(s) URI (or null, the same as leaving it out)');
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

  it("when a tenant deletes a store on one replica, then another replica forgets that store at once and keeps other tenants' look-ups", async () => {
    // Two replicas that would remember a store for a minute: only the broadcast makes one forget it.
    const [first, second] = [await fixture.gateway({ lookupCacheMs: 60_000 }), await fixture.gateway({ lookupCacheMs: 60_000 })];
    const [changing, bystanding] = [await portalInstalledThroughV2(), await aPortalInstalledThroughV2()];
    const bystander = bystanding.apiKey;
    const send = (key: string) =>
      request(second)
        .put(`${v2}/sync/messages?hapikey=${key}`)
        .send({ storeId: 'web', objectType: 'CONTACT', messages: [contact] });
    await send(changing).expect(204);
    await send(bystander).expect(204);

    await request(first).delete(`${v2}/stores/web?hapikey=${changing}`).expect(204);
    await waitFor(async () => (await send(changing)).status === 400, { message: 'the second replica to forget the deleted store' });

    // The bystander's store goes behind every replica's back: the second one still has it from before, as no broadcast named it.
    await fixture.database.repositories.stores.remove({ portalId: bystanding.portalId, appId: null }, 'web');
    await send(bystander).expect(204);
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
