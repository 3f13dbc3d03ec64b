import type { ObjectType } from '@ecomm-sync/contracts';
import type { ObjectSync, ObjectSyncRepository } from '@ecomm-sync/data-access';
import { compareRevisions } from '@ecomm-sync/domain';
import { anAppTenant, aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Syncs = PublicOf<ObjectSyncRepository>;

const recordOf = (externalObjectId: string, rev: number, settingsRev = 1) => ({ externalObjectId, rev, settingsRev, processedAt: rev * 10, changedAt: rev });
const newer =
  (rev: number, settingsRev = 1) =>
  (_id: string, sync: ObjectSync | undefined) =>
    compareRevisions({ rev, settingsRev }, { rev: sync?.appliedRev ?? 0, settingsRev: sync?.appliedSettingsRev ?? 0 }) > 0;

/** What the applier and the gateway rely on from ObjectSyncRepository; run against the fake and the real one. */
export function describeObjectSyncRepositoryContract(name: string, make: () => Syncs | Promise<Syncs>): void {
  describe(`ObjectSyncRepository contract: ${name}`, () => {
    let syncs: Syncs;
    let tenant = aTenant();
    beforeEach(async () => {
      syncs = await make();
      tenant = aTenant();
    });

    const key = (externalObjectId: string, objectType: ObjectType = 'CONTACT') => ({ ...tenant, storeId: 'default', objectType, externalObjectId });
    /** Claims, then records: what one writer does around its CRM write. */
    const write = async (
      ids: string[],
      rev: number,
      settingsRev = 1,
      objectType: ObjectType = 'CONTACT',
      link?: { crmId: number | null; generation: number; archived: boolean },
    ) => {
      const seen = await syncs.findMany({ tenant, storeId: 'default', objectType }, ids);
      const claim = await syncs.claim({ tenant, storeId: 'default', objectType }, seen, ids, newer(rev, settingsRev));
      const records = [...claim.claimed.keys()].map((id) => ({ ...recordOf(id, rev, settingsRev), ...(link ? { link } : {}) }));
      const recorded = await syncs.recordProcessed({ tenant, storeId: 'default', objectType }, records, claim);
      return { notNewer: claim.notNewer, ...recorded };
    };

    it('when an object is recorded first with a link, then it reads with that link and revision; without one, unlinked', async () => {
      await write(['linked'], 2, 3, 'CONTACT', { crmId: 77, generation: 1, archived: false });
      await write(['plain'], 1);
      expect(await syncs.findOne(key('linked'))).toEqual({
        externalObjectId: 'linked',
        crmId: 77,
        generation: 1,
        archived: false,
        appliedRev: 2,
        appliedSettingsRev: 3,
        lastProcessedAt: 20,
        changedAt: 2,
        claim: expect.any(String),
      });
      expect(await syncs.findOne(key('plain'))).toMatchObject({ crmId: null, generation: 0, archived: false, appliedRev: 1 });
    });

    it('when a later record has no link, then the link stays; with one, it is replaced', async () => {
      await write(['o'], 1, 1, 'CONTACT', { crmId: 5, generation: 0, archived: false });
      await write(['o'], 2);
      expect(await syncs.findOne(key('o'))).toMatchObject({ crmId: 5, archived: false, appliedRev: 2 });
      await write(['o'], 3, 1, 'CONTACT', { crmId: 5, generation: 0, archived: true });
      expect(await syncs.findOne(key('o'))).toMatchObject({ crmId: 5, archived: true, appliedRev: 3 });
    });

    it('when statuses are read, then only the objects of that tenant, store and type that have one come back', async () => {
      await write(['a', 'b'], 1);
      const found = await syncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['a', 'b', 'missing']);
      expect([...found.keys()].sort()).toEqual(['a', 'b']);
      expect((await syncs.findMany({ tenant, storeId: 'eu', objectType: 'CONTACT' }, ['a'])).size).toBe(0);
      expect((await syncs.findMany({ tenant, storeId: 'default', objectType: 'DEAL' }, ['a'])).size).toBe(0);
      expect((await syncs.findMany({ tenant: anAppTenant({ portalId: tenant.portalId }), storeId: 'default', objectType: 'CONTACT' }, ['a'])).size).toBe(0);
      expect(await syncs.findOne(key('missing'))).toBeNull();
    });

    it('when live CRM ids are asked for, then only linked, unarchived objects of that scope answer', async () => {
      await write(['live'], 1, 1, 'DEAL', { crmId: 11, generation: 0, archived: false });
      await write(['archived'], 1, 1, 'DEAL', { crmId: 12, generation: 0, archived: true });
      await write(['unlinked'], 1, 1, 'DEAL');
      expect(await syncs.liveCrmIds({ tenant, storeId: 'default', objectType: 'DEAL' }, ['live', 'archived', 'unlinked', 'missing'])).toEqual(
        new Map([['live', 11]]),
      );
      expect((await syncs.liveCrmIds({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['live'])).size).toBe(0);
    });

    it('when a revision is written, again, and then an older one, then only the first lands and the others are not claimed', async () => {
      expect(await write(['c1'], 2)).toEqual({ notNewer: [], superseded: [], contended: [] });
      expect(await write(['c1'], 2)).toEqual({ notNewer: ['c1'], superseded: [], contended: [] });
      expect(await write(['c1'], 1)).toEqual({ notNewer: ['c1'], superseded: [], contended: [] });
      expect(await syncs.findOne(key('c1'))).toMatchObject({ appliedRev: 2, lastProcessedAt: 20 });
    });

    it('when a re-map of the same state revision has newer settings, then it lands, and an older one does not', async () => {
      expect((await write(['d1'], 3, 1, 'DEAL')).notNewer).toEqual([]);
      expect((await write(['d1'], 3, 2, 'DEAL')).notNewer).toEqual([]);
      expect((await write(['d1'], 3, 1, 'DEAL')).notNewer).toEqual(['d1']);
      expect(await syncs.findOne(key('d1', 'DEAL'))).toMatchObject({ appliedRev: 3, appliedSettingsRev: 2 });
    });

    it('when objects have no status yet, then claiming them writes nothing and marks them as first records', async () => {
      const none = await syncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['f1']);
      const claim = await syncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, none, ['f1'], newer(1));
      expect([...claim.firstRecords]).toEqual(['f1']);
      expect(claim.claimed.get('f1')).toMatchObject({ crmId: null, appliedRev: 0, appliedSettingsRev: 0 });
      expect(await syncs.findOne(key('f1'))).toBeNull();
    });

    it('when two writers claim the same objects one after the other, then the first cannot record and learns whether it was superseded or must write again', async () => {
      const ids = ['s1', 's2'];
      await write(ids, 1);
      const seen = await syncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ids);
      const first = await syncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, seen, ids, newer(5));
      expect([...first.claimed.keys()]).toEqual(ids);
      await write(['s1'], 6);
      await write(['s2'], 4);

      expect(await syncs.recordProcessed({ tenant, storeId: 'default', objectType: 'CONTACT' }, [recordOf('s1', 5), recordOf('s2', 5)], first)).toEqual({
        superseded: ['s1'],
        contended: ['s2'],
      });
      expect(await syncs.findOne(key('s1'))).toMatchObject({ appliedRev: 6 });
      expect(await syncs.findOne(key('s2'))).toMatchObject({ appliedRev: 4 });
    });

    it('when a writer claims on a status read before another writer claimed it, then it claims on what is stored now', async () => {
      await write(['r1'], 1);
      const stale = await syncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['r1']);
      await write(['r1'], 3);
      const claim = await syncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, stale, ['r1'], newer(2));
      expect(claim.notNewer).toEqual(['r1']);
      expect(claim.claimed.size).toBe(0);
      const again = await syncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, stale, ['r1'], newer(4));
      expect(again.claimed.get('r1')).toMatchObject({ appliedRev: 3, claim: again.token });
    });

    it('when two writers make the first record of the same new objects, then only one insert lands and the other learns whether it was superseded or must write again', async () => {
      const ids = ['n1', 'n2'];
      const none = await syncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ids);
      const first = await syncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, none, ids, newer(5));
      await write(['n1'], 6);
      await write(['n2'], 4);

      expect(await syncs.recordProcessed({ tenant, storeId: 'default', objectType: 'CONTACT' }, [recordOf('n1', 5), recordOf('n2', 5)], first)).toEqual({
        superseded: ['n1'],
        contended: ['n2'],
      });
      expect(await syncs.findOne(key('n1'))).toMatchObject({ appliedRev: 6 });
      expect(await syncs.findOne(key('n2'))).toMatchObject({ appliedRev: 4 });
    });

    it('when many writers claim and record revisions of the same objects at once, and write again when contended, then each object ends at its newest revision', async () => {
      const ids = ['m1', 'm2', 'm3'];
      const settle = async (rev: number) => {
        let pending = ids;
        for (let round = 0; pending.length > 0; round++) {
          if (round === 20) throw new Error(`revision ${rev} still contended after 20 rounds`);
          pending = await write(pending, rev).then(
            (result) => result.contended,
            () => pending,
          );
        }
      };
      await Promise.all([7, 2, 9, 4, 1, 8, 3, 6, 5].map(settle));
      for (const id of ids) expect(await syncs.findOne(key(id))).toMatchObject({ appliedRev: 9, lastProcessedAt: 90 });
    });
  });
}
