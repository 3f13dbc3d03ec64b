import type { Tenant } from '@ecomm-sync/contracts';
import type { ObjectStateRepository, OwnedObjectState } from '@ecomm-sync/data-access';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import { anAppTenant, aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type States = PublicOf<ObjectStateRepository>;
const stateWith = (changedAt: number, properties: Record<string, string>) =>
  mergeMessage(emptyObjectState(), { externalObjectId: 'x', action: 'UPSERT', changedAt, properties }, 0).state;

/** What the mapper relies on from ObjectStateRepository; run against the fake and the real one. */
export function describeObjectStateRepositoryContract(name: string, make: () => States | Promise<States>): void {
  describe(`ObjectStateRepository contract: ${name}`, () => {
    let states: States;
    let tenant: Tenant;
    beforeEach(async () => {
      states = await make();
      tenant = aTenant();
    });
    const collect = async (pages: AsyncGenerator<OwnedObjectState[]>) => {
      const all: OwnedObjectState[][] = [];
      for await (const page of pages) all.push(page);
      return all;
    };

    it('when new objects are saved, then they read back at a revision not below the clock, and unknown ones are absent', async () => {
      const before = Date.now();
      const { saved, conflicts } = await states.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'a', state: stateWith(1, { email: 'a@example.com' }), expectedRev: null },
      ]);
      expect(conflicts).toEqual([]);
      expect(saved.get('a')).toBeGreaterThanOrEqual(before);
      const found = await states.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['a', 'b']);
      expect([...found.keys()]).toEqual(['a']);
      expect(found.get('a')).toEqual({ externalObjectId: 'a', state: stateWith(1, { email: 'a@example.com' }), rev: saved.get('a') });
    });

    it('when writes expect a revision, then those that read the current one land at a higher revision and the others are conflicts that change nothing', async () => {
      const first = await states.saveMany(
        { tenant, storeId: 'default', objectType: 'DEAL' },
        ['a', 'b'].map((id) => ({ externalObjectId: id, state: stateWith(1, { n: '1' }), expectedRev: null })),
      );
      const revA = first.saved.get('a')!;
      const { saved, conflicts } = await states.saveMany({ tenant, storeId: 'default', objectType: 'DEAL' }, [
        { externalObjectId: 'a', state: stateWith(2, { n: '2' }), expectedRev: revA },
        { externalObjectId: 'b', state: stateWith(2, { n: '2' }), expectedRev: first.saved.get('b')! - 1 },
        { externalObjectId: 'c', state: stateWith(2, { n: '2' }), expectedRev: 5 },
        { externalObjectId: 'a-new', state: stateWith(2, { n: '2' }), expectedRev: null },
      ]);
      expect(conflicts.sort()).toEqual(['b', 'c']);
      expect(saved.get('a')).toBeGreaterThan(revA);
      const found = await states.findMany({ tenant, storeId: 'default', objectType: 'DEAL' }, ['a', 'b', 'c']);
      expect(found.get('a')).toMatchObject({ state: stateWith(2, { n: '2' }), rev: saved.get('a') });
      expect(found.get('b')).toMatchObject({ state: stateWith(1, { n: '1' }), rev: first.saved.get('b') });
      expect(found.has('c')).toBe(false);
    });

    it('when an object exists, then a first write of it (no revision expected) is a conflict', async () => {
      await states.saveMany({ tenant, storeId: 'default', objectType: 'PRODUCT' }, [{ externalObjectId: 'p', state: stateWith(1, {}), expectedRev: null }]);
      const { conflicts } = await states.saveMany({ tenant, storeId: 'default', objectType: 'PRODUCT' }, [
        { externalObjectId: 'p', state: stateWith(2, {}), expectedRev: null },
      ]);
      expect(conflicts).toEqual(['p']);
    });

    it('when the same external id is used by another tenant, store or object type, then each is its own object', async () => {
      const keys: [Tenant, string, 'CONTACT' | 'DEAL'][] = [
        [tenant, 'default', 'CONTACT'],
        [{ ...tenant, appId: 'app-x' }, 'default', 'CONTACT'],
        [tenant, 'eu', 'CONTACT'],
        [tenant, 'default', 'DEAL'],
      ];
      for (const [i, [owner, storeId, type]] of keys.entries())
        await states.saveMany({ tenant: owner, storeId, objectType: type }, [
          { externalObjectId: 'same', state: stateWith(i, { i: String(i) }), expectedRev: null },
        ]);
      for (const [i, [owner, storeId, type]] of keys.entries())
        expect((await states.findMany({ tenant: owner, storeId, objectType: type }, ['same'])).get('same')!.state).toEqual(stateWith(i, { i: String(i) }));
    });

    it('when a tenant has an object in a store, then it has objects in that store only (that object, of its type), and another tenant of the portal has none there', async () => {
      await states.saveMany({ tenant, storeId: 'eu', objectType: 'DEAL' }, [{ externalObjectId: 'd', state: stateWith(1, {}), expectedRev: null }]);

      expect(await states.hasObjectsIn(tenant, 'eu')).toBe(true);
      expect(await states.stored({ tenant, storeId: 'eu', objectType: 'DEAL' }, ['d', 'e', 'd'])).toEqual(new Set(['d']));
      expect(await states.stored({ tenant, storeId: 'eu', objectType: 'CONTACT' }, ['d'])).toEqual(new Set());
      expect(await states.stored({ tenant, storeId: 'eu', objectType: 'DEAL' }, [])).toEqual(new Set());
      expect(await states.hasObjectsIn(tenant, 'us')).toBe(false);
      expect(await states.hasObjectsIn({ ...tenant, appId: 'app-x' }, 'eu')).toBe(false);
      expect(await states.hasObjectsIn({ ...tenant, portalId: tenant.portalId + 1 }, 'eu')).toBe(false);
    });

    it('when new objects are inserted and one exists already, then the call fails on it and the others are inserted', async () => {
      await states.insertNew({ tenant, storeId: 'default', objectType: 'CONTACT' }, [{ externalObjectId: 'old', state: stateWith(1, {}) }]);
      await expect(
        states.insertNew(
          { tenant, storeId: 'default', objectType: 'CONTACT' },
          ['old', 'new'].map((id) => ({ externalObjectId: id, state: stateWith(2, {}) })),
        ),
      ).rejects.toMatchObject({ code: 11000 });
      const found = await states.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['old', 'new']);
      expect([found.get('old')!.state, found.get('new')!.state]).toEqual([stateWith(1, {}), stateWith(2, {})]);
    });

    it("when an owner's objects are paged, then pages hold pageSize objects in id order, resume after an id, and hold only that owner's objects", async () => {
      const app = anAppTenant();
      const otherPortal = { ...app, portalId: app.portalId + 1 };
      const direct = { portalId: app.portalId, appId: null };
      for (const [owner, ids] of [
        [app, ['c', 'a', 'e']],
        [otherPortal, ['b', 'd']],
        [direct, ['z']],
      ] as [Tenant, string[]][]) {
        await states.saveMany(
          { tenant: owner, storeId: 'default', objectType: 'CONTACT' },
          ids.map((id) => ({ externalObjectId: id, state: stateWith(1, {}), expectedRev: null })),
        );
      }
      await states.saveMany({ tenant: app, storeId: 'default', objectType: 'DEAL' }, [
        { externalObjectId: 'deal', state: stateWith(1, {}), expectedRev: null },
      ]);

      const pages = await collect(states.pagesForOwner({ appId: app.appId }, 'CONTACT', null, 2));
      const all = pages.flat();
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect([...all.map((owned) => owned.id)]).toEqual(all.map((owned) => owned.id).sort());
      expect(all.map((owned) => `${owned.tenant.portalId - app.portalId}:${owned.externalObjectId}`)).toEqual(['0:a', '0:c', '0:e', '1:b', '1:d']);
      expect(all[0]).toMatchObject({ tenant: app, storeId: 'default', state: stateWith(1, {}) });

      const rest = (await collect(states.pagesForOwner({ appId: app.appId }, 'CONTACT', all[2].id, 10))).flat();
      expect(rest.map((owned) => owned.externalObjectId)).toEqual(['b', 'd']);
      const directOnly = (await collect(states.pagesForOwner({ portalId: app.portalId, appId: null }, 'CONTACT', null, 10))).flat();
      expect(directOnly.map((owned) => owned.externalObjectId)).toEqual(['z']);
    });
  });
}
