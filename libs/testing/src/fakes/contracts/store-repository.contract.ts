import { storeKeyOf, type StoreRepository } from '@ecomm-sync/data-access';
import { anAppTenant, aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Stores = PublicOf<StoreRepository>;

/** What the use cases rely on from StoreRepository; run against the fake and the real one. */
export function describeStoreRepositoryContract(name: string, make: () => Stores | Promise<Stores>): void {
  describe(`StoreRepository contract: ${name}`, () => {
    let stores: Stores;
    beforeEach(async () => {
      stores = await make();
    });

    it('when a store is upserted twice, then the second replaces the first, and a store without an admin address has none', async () => {
      const tenant = aTenant();
      await stores.upsert(tenant, { id: 'eu', label: 'Europe', adminUri: 'https://admin.example.com' });
      expect(await stores.upsert(tenant, { id: 'eu', label: 'EU' })).toEqual({ id: 'eu', label: 'EU' });
      expect(await stores.find(tenant, 'eu')).toEqual({ id: 'eu', label: 'EU' });
      expect(await stores.find(tenant, 'us')).toBeNull();
    });

    it('when several stores are asked after at once, then the answer names those of each tenant that exist, and none for none asked', async () => {
      const app = anAppTenant();
      const direct = { portalId: app.portalId, appId: null };
      await stores.upsert(app, { id: 'eu', label: 'EU' });
      await stores.upsert(direct, { id: 'us', label: 'US' });
      await stores.upsert(app, { id: 'gone', label: 'Gone' });
      await stores.remove(app, 'gone');

      const asked = [
        { tenant: app, storeId: 'eu' },
        { tenant: app, storeId: 'us' },
        { tenant: direct, storeId: 'us' },
        { tenant: direct, storeId: 'eu' },
        { tenant: app, storeId: 'gone' },
      ];
      expect([...(await stores.existing(asked))].sort()).toEqual([storeKeyOf(app, 'eu'), storeKeyOf(direct, 'us')].sort());
      expect(await stores.existing([])).toEqual(new Set());
    });

    it('when tenants have stores of the same id, then each sees only its own: portals apart, and applications apart within a portal', async () => {
      const app = anAppTenant();
      const direct = { portalId: app.portalId, appId: null };
      await stores.upsert(app, { id: 'default', label: 'of the app' });
      await stores.upsert(direct, { id: 'default', label: 'direct' });
      expect(await stores.find(app, 'default')).toEqual({ id: 'default', label: 'of the app' });
      expect(await stores.find(direct, 'default')).toEqual({ id: 'default', label: 'direct' });
      expect(await stores.find({ ...app, portalId: app.portalId + 1 }, 'default')).toBeNull();
    });

    it('when a tenant lists its stores, then they come in store id order', async () => {
      const tenant = aTenant();
      for (const id of ['b', 'c', 'a']) await stores.upsert(tenant, { id, label: id.toUpperCase() });
      expect((await stores.list(tenant)).map((store) => store.id)).toEqual(['a', 'b', 'c']);
      expect(await stores.list(aTenant())).toEqual([]);
    });

    it('when stores are removed, then one goes once, and removing all says how many went', async () => {
      const tenant = aTenant();
      for (const id of ['a', 'b', 'c']) await stores.upsert(tenant, { id, label: id });
      expect(await stores.remove(tenant, 'a')).toBe(true);
      expect(await stores.remove(tenant, 'a')).toBe(false);
      expect(await stores.removeAll(tenant)).toBe(2);
      expect(await stores.list(tenant)).toEqual([]);
    });
  });
}
