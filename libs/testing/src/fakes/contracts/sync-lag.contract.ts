import type { ObjectScope, Tenant } from '@ecomm-sync/contracts';
import type { ObjectStateRepository, ObjectSyncRepository, ProcessedRecord } from '@ecomm-sync/data-access';
import { emptyObjectState, LAG_NOT_KNOWN, mergeMessage } from '@ecomm-sync/domain';
import { aTenant } from '../builders';
import type { PublicOf } from '../public-of';

/** The states the mapper saves and the statuses the applier records, over one database. */
export interface SyncLagRepositories {
  states: PublicOf<ObjectStateRepository>;
  syncs: PublicOf<ObjectSyncRepository>;
}

const T = 1_700_000_000_000;
const stateWith = (email: string) =>
  mergeMessage(emptyObjectState(), { externalObjectId: 'x', action: 'UPSERT', changedAt: 1, properties: { email } }, 0).state;

/**
 * What the alerts' sync lag relies on (decision 0053, addendum): an object waits to be applied from
 * its acceptance until the applier records its newest revision processed (applied, or failed), and
 * the read of the tenant's oldest wait clears the markers of processed objects (a bounded sweep).
 * Run against the fakes and the real repositories.
 */
export function describeSyncLagContract(name: string, make: () => SyncLagRepositories | Promise<SyncLagRepositories>): void {
  describe(`sync lag contract: ${name}`, () => {
    let states: SyncLagRepositories['states'];
    let syncs: SyncLagRepositories['syncs'];
    let tenant: Tenant;
    beforeEach(async () => {
      ({ states, syncs } = await make());
      tenant = aTenant();
    });
    const scope = (storeId = 'default', receivedAt = T): ObjectScope & { receivedAt: number } => ({ tenant, storeId, objectType: 'CONTACT', receivedAt });
    const save = async (at: ObjectScope & { receivedAt: number }, id: string, expectedRev: number | null = null) =>
      (await states.saveMany(at, [{ externalObjectId: id, state: stateWith(`${id}-${at.receivedAt}@example.com`), expectedRev }])).saved.get(id)!;
    /** The applier's record: applied (a CRM link), or failed (`link: null`, its error recorded apart). */
    const record = async (at: ObjectScope, id: string, rev: number, link: ProcessedRecord['link'] | null = { crmId: 7, generation: 0, archived: false }) => {
      const processed: ProcessedRecord = { externalObjectId: id, rev, settingsRev: 1, processedAt: T + 100, changedAt: 1, ...(link ? { link } : {}) };
      const seen = await syncs.findMany(at, [id]);
      const claim = await syncs.claim(at, seen, [id], () => true);
      return syncs.recordProcessed(at, [processed], claim);
    };

    it('when objects are accepted, then the tenant waits since the oldest acceptance, a store since its own, and another tenant waits for nothing', async () => {
      expect(await states.oldestUnapplied(tenant, null)).toBeNull();
      await save(scope('default', T + 20), 'a');
      await save(scope('other', T + 10), 'b');

      expect(await states.oldestUnapplied(tenant, null)).toBe(T + 10);
      expect(await states.oldestUnapplied(tenant, 'default')).toBe(T + 20);
      expect(await states.oldestUnapplied(aTenant(), null)).toBeNull();
    });

    it('when another store’s objects wait, then a store with none waiting reads no lag, and its own wait only', async () => {
      await save(scope('backfill', T), 'a');
      await save(scope('backfill', T + 1), 'b');

      expect(await states.oldestUnapplied(tenant, 'web', { pageSize: 1, maxPages: 1 })).toBeNull();
      await save(scope('web', T + 5), 'c');
      expect(await states.oldestUnapplied(tenant, 'web', { pageSize: 1, maxPages: 1 })).toBe(T + 5);
    });

    it('when an object is accepted again before it is applied, then it still waits since its first acceptance', async () => {
      const rev = await save(scope('default', T), 'a');
      await save(scope('default', T + 50), 'a', rev);

      expect(await states.oldestUnapplied(tenant, null)).toBe(T);
    });

    it('when its newest revision is recorded processed, then the read clears its marker: it no longer counts, and waits anew from its next acceptance', async () => {
      const rev = await save(scope('default', T), 'a');
      await save(scope('other', T + 30), 'b');

      await record(scope(), 'a', rev);

      expect(await states.oldestUnapplied(tenant, null)).toBe(T + 30);
      // Accepted after its revision was processed: from then on, not since its first acceptance.
      await save(scope('default', rev + 1_000), 'a', rev);
      expect(await states.oldestUnapplied(tenant, 'default')).toBe(rev + 1_000);
    });

    it('when its revision failed (an error record is an outcome), then the object counts as processed', async () => {
      const rev = await save(scope('default', T), 'a');

      await record(scope(), 'a', rev, null);

      expect(await states.oldestUnapplied(tenant, null)).toBeNull();
    });

    it('when a newer revision was accepted while an older one was applied, then the object waits since its newest revision (never longer), until it is processed', async () => {
      const first = await save(scope('default', T), 'a');
      const second = await save(scope('default', T + 40), 'a', first);

      await record(scope(), 'a', first);

      expect(await states.oldestUnapplied(tenant, null)).toBe(second);
      await record(scope(), 'a', second);
      expect(await states.oldestUnapplied(tenant, null)).toBeNull();
    });

    it('when an object accepted later waits since earlier than one accepted anew after an applied revision, then the earlier wait is the lag', async () => {
      const first = await save(scope('default', T), 'a');
      await save(scope('default', T + 40), 'a', first);
      await record(scope(), 'a', first);
      await save(scope('default', T + 30), 'b');

      expect(await states.oldestUnapplied(tenant, null, { pageSize: 1, maxPages: 40 })).toBe(T + 30);
      expect(await states.oldestUnapplied(tenant, null)).toBe(T + 30);
    });

    it('when more processed objects are marked than one read judges, then it says the lag is not known yet (no false alarm, no false all-clear), and the next read finishes the sweep', async () => {
      for (const [i, id] of ['p1', 'p2', 'p3', 'p4', 'p5'].entries()) await record(scope(), id, await save(scope('default', T + i), id));
      await save(scope('default', T + 10), 'waiting');
      const bound = { pageSize: 2, maxPages: 2 };

      expect(await states.oldestUnapplied(tenant, null, bound)).toBe(LAG_NOT_KNOWN);
      expect(await states.oldestUnapplied(tenant, null, bound)).toBe(T + 10);
    });

    it('when a long wait is at the front, then a read still clears the processed markers behind it while its pages clear some', async () => {
      await save(scope('default', T), 'stuck');
      for (const [i, id] of ['p1', 'p2', 'p3', 'p4', 'p5'].entries()) await record(scope(), id, await save(scope('default', T + 1 + i), id));
      await save(scope('default', T + 20), 'waiting');
      const bound = { pageSize: 2, maxPages: 10 };

      expect(await states.oldestUnapplied(tenant, null, bound)).toBe(T);
      const stuck = (await states.findMany(scope(), ['stuck'])).get('stuck')!.rev;
      await record(scope(), 'stuck', stuck);
      expect(await states.oldestUnapplied(tenant, null, { pageSize: 2, maxPages: 1 })).toBe(T + 20);
    });
  });
}
