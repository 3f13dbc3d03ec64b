import type { ParkedChangeRepository } from '@ecomm-sync/data-access';
import { aMappedChange } from '../../support';
import { anAppTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Parked = PublicOf<ParkedChangeRepository>;

/** What the applier relies on from ParkedChangeRepository; run against the fake and the real one. */
export function describeParkedChangeRepositoryContract(name: string, make: () => Parked | Promise<Parked>): void {
  describe(`ParkedChangeRepository contract: ${name}`, () => {
    let parked: Parked;
    beforeEach(async () => {
      parked = await make();
    });

    it('when changes are parked, then the portal takes them parked longest first, at most the limit, and counts them', async () => {
      const tenant = anAppTenant();
      await parked.park(
        { tenant, storeId: 'default', objectType: 'CONTACT' },
        [{ change: aMappedChange({ externalObjectId: 'late', rev: 1 }), reapply: false }],
        200,
      );
      await parked.park({ tenant, storeId: 'eu', objectType: 'DEAL' }, [{ change: aMappedChange({ externalObjectId: 'early', rev: 1 }), reapply: true }], 100);
      const taken = await parked.take(tenant.portalId, 10);
      expect(
        taken.map(({ tenant: owner, storeId, objectType, change, reapply, parkedAt }) => [
          owner,
          storeId,
          objectType,
          change.externalObjectId,
          reapply,
          parkedAt,
        ]),
      ).toEqual([
        [tenant, 'eu', 'DEAL', 'early', true, 100],
        [tenant, 'default', 'CONTACT', 'late', false, 200],
      ]);
      expect((await parked.take(tenant.portalId, 1)).map((row) => row.change.externalObjectId)).toEqual(['early']);
      expect(await parked.count(tenant.portalId)).toBe(2);
      expect(await parked.count(anAppTenant().portalId)).toBe(0);
    });

    it.each([
      ['a newer revision replaces the parked one and keeps its parking time', { rev: 2, settingsRev: 1 }, { rev: 2, settingsRev: 1 }],
      ['a newer settings revision replaces it', { rev: 1, settingsRev: 2 }, { rev: 1, settingsRev: 2 }],
      ['the same revision replaces it', { rev: 1, settingsRev: 1 }, { rev: 1, settingsRev: 1 }],
      ['an older revision leaves it', { rev: 0, settingsRev: 5 }, { rev: 1, settingsRev: 1 }],
    ])('when an object is parked again, then %s', async (_case, again, kept) => {
      const tenant = anAppTenant();
      await parked.park(
        { tenant, storeId: 'default', objectType: 'CONTACT' },
        [{ change: aMappedChange({ externalObjectId: 'c', rev: 1, settingsRev: 1 }), reapply: false }],
        100,
      );
      await parked.park(
        { tenant, storeId: 'default', objectType: 'CONTACT' },
        [{ change: aMappedChange({ externalObjectId: 'c', ...again }), reapply: true }],
        200,
      );
      const [row] = await parked.take(tenant.portalId, 10);
      expect([row.change.rev, row.change.settingsRev, row.parkedAt]).toEqual([kept.rev, kept.settingsRev, 100]);
      expect(await parked.count(tenant.portalId)).toBe(1);
    });

    it('when writers park many revisions of one object at once, then the newest is kept', async () => {
      const tenant = anAppTenant();
      const scope = { tenant, storeId: 'default', objectType: 'CONTACT' } as const;
      const revisions = [4, 9, 1, 7, 3, 10, 2, 8, 6, 5];
      await Promise.all(
        revisions.map((rev) => parked.park(scope, [{ change: aMappedChange({ externalObjectId: 'c', rev, settingsRev: 1 }), reapply: false }], rev)),
      );
      const [row] = await parked.take(tenant.portalId, 10);
      expect(row.change.rev).toBe(10);
      expect(await parked.count(tenant.portalId)).toBe(1);
    });

    it('when a change is released while a newer one is parked, then the newer one stays', async () => {
      const tenant = anAppTenant();
      const scope = { tenant, storeId: 'default', objectType: 'CONTACT' } as const;
      await parked.park(scope, [{ change: aMappedChange({ externalObjectId: 'c', rev: 1, settingsRev: 1 }), reapply: false }], 100);
      await Promise.all([
        parked.release(scope, [{ externalObjectId: 'c', rev: 1, settingsRev: 1 }]),
        parked.park(scope, [{ change: aMappedChange({ externalObjectId: 'c', rev: 2, settingsRev: 1 }), reapply: false }], 200),
      ]);
      expect((await parked.take(tenant.portalId, 10)).map((row) => row.change.rev)).toEqual([2]);
    });

    it('when parked changes are released at a revision, then those not newer go and a newer one stays', async () => {
      const tenant = anAppTenant();
      const changes = ['a', 'b', 'c'].map((externalObjectId) => ({ change: aMappedChange({ externalObjectId, rev: 2, settingsRev: 1 }), reapply: false }));
      await parked.park({ tenant, storeId: 'default', objectType: 'CONTACT' }, changes, 100);
      await parked.release({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'a', rev: 2, settingsRev: 1 },
        { externalObjectId: 'b', rev: 3, settingsRev: 0 },
        { externalObjectId: 'c', rev: 1, settingsRev: 9 },
      ]);
      await parked.release({ tenant, storeId: 'eu', objectType: 'CONTACT' }, [{ externalObjectId: 'c', rev: 9, settingsRev: 9 }]);
      expect((await parked.take(tenant.portalId, 10)).map((row) => row.change.externalObjectId)).toEqual(['c']);
    });
  });
}
