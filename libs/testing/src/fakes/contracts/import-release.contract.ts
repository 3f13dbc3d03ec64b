import type { ObjectType } from '@ecomm-sync/contracts';
import type { ImportRecord, ImportRepository } from '@ecomm-sync/data-access';
import type { ImportEvent } from '@ecomm-sync/domain';
import { aNewImport } from '../builders';
import type { PublicOf } from '../public-of';
import { moveImport } from '../repositories/fake-import.repository';

type Imports = PublicOf<ImportRepository>;

/**
 * What the import-coordinator's release relies on from ImportRepository (the release problem, the
 * claims and steps of a release, the backlog of complete imports waiting for one), run against the
 * fake and the real repository as the rest of its contract (import-repository.contract.ts).
 */
export function describeImportReleaseContract(name: string, make: () => Imports | Promise<Imports>): void {
  describe(`ImportRepository release contract: ${name}`, () => {
    let imports: Imports;
    beforeEach(async () => {
      imports = await make();
    });
    const created = async (overrides: Parameters<typeof aNewImport>[0] = {}): Promise<ImportRecord> => (await imports.create(aNewImport(overrides)))!;
    const endOf = (objectType: ObjectType, at: number): ImportEvent => ({ kind: 'end-received', objectType, pageCount: 0, itemCount: 0, at });
    const complete = async (record: ImportRecord, now: number) => {
      const done = await moveImport(imports, record.importId, ...(Object.keys(record.types) as ObjectType[]).map((type) => endOf(type, now)));
      expect(done).toMatchObject({ status: 'complete', completedAt: now });
    };

    it('when a release failure of a complete import is recorded, and cleared by a page released, then the import keeps each', async () => {
      const record = (await imports.create(aNewImport()))!;
      const complete = { ...record, status: 'complete' as const, completedAt: 1_000 };
      const problem = { reason: 'publishing failed', at: 2_000, tries: 2, since: 1_500 };
      expect(await imports.compareAndSet(record.importId, record.rev, { ...complete, releaseProblem: problem })).toBe(true);
      expect(await imports.findById(record.importId)).toMatchObject({ releaseProblem: problem, rev: 1 });
      expect(await imports.compareAndSet(record.importId, 1, { ...complete, releasedThrough: 'CONTACT:1', releaseProblem: null })).toBe(true);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'CONTACT:1', releaseProblem: null, rev: 2 });
    });

    it('when a complete import is released in steps, then it is unreleased until the last step, which marks it released; one that progressed after `before` is left to its releaser', async () => {
      const record = await created();
      await complete(record, 1_000);
      const mine = async (before: number) => (await imports.unreleased(before, 1_000)).filter((found) => found.importId === record.importId);
      expect(await mine(999)).toEqual([]);
      expect(await mine(1_000)).toHaveLength(1);
      await moveImport(imports, record.importId, { kind: 'release-claimed', at: 1_500, staleBefore: 1_000, owner: 'first' });
      await moveImport(imports, record.importId, { kind: 'release-progressed', through: 'CONTACT:3', done: false, at: 2_000, owner: 'first' });
      expect(await mine(1_999)).toEqual([]);
      expect(await mine(2_000)).toEqual([
        expect.objectContaining({ releasedThrough: 'CONTACT:3', releasedAt: null, releaseProgressAt: 2_000, releaseOwner: 'first' }),
      ]);
      // Taken over after the look-back: the first releaser's late step changes nothing stored.
      await moveImport(imports, record.importId, { kind: 'release-claimed', at: 2_600, staleBefore: 2_500, owner: 'second' });
      await moveImport(imports, record.importId, { kind: 'release-progressed', through: 'DEAL:9', done: false, at: 2_700, owner: 'first' });
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'CONTACT:3', releaseProgressAt: 2_600, releaseOwner: 'second' });
      await moveImport(imports, record.importId, { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: 3_000, owner: 'second' });
      expect(await mine(3_000)).toEqual([]);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: 3_000, releaseOwner: 'second' });
    });

    it('when imports wait for their release, then the backlog counts their portals and the oldest completion, but not a release held or finished, nor an import behind its portal’s running release', async () => {
      const base = await imports.releaseBacklog(10_000);
      const baseEarly = await imports.releaseBacklog(-2_500);
      const first = await created();
      const second = await created();
      const behind = await created({ tenant: first.tenant, importStartedAt: first.importStartedAt + 1 });
      // Completed before any other test's imports (they complete at positive times); first and behind share a portal.
      await complete(first, -2_000);
      await complete(second, -1_000);
      await complete(behind, -3_000);
      expect(await imports.releaseBacklog(10_000)).toEqual({ portals: base.portals + 2, oldestCompletedAt: -3_000 });
      // Completed after the cut-off: its completion starts it, the check has not missed it yet.
      expect(await imports.releaseBacklog(-2_500)).toEqual({ portals: baseEarly.portals + 1, oldestCompletedAt: -3_000 });

      // Held: its releaser progressed after the cut-off; the import behind it waits for it, not for room.
      await moveImport(imports, first.importId, { kind: 'release-claimed', at: 20_000, staleBefore: 0, owner: 'r1' });
      expect(await imports.releaseBacklog(10_000)).toEqual({ portals: base.portals + 1, oldestCompletedAt: -1_000 });

      // Released, first: the one behind it waits now.
      await moveImport(imports, first.importId, { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: 20_001, owner: 'r1' });
      expect(await imports.releaseBacklog(10_000)).toEqual({ portals: base.portals + 2, oldestCompletedAt: -3_000 });

      // Released, all: the backlog is as it was.
      for (const [record, owner] of [
        [second, 'r2'],
        [behind, 'r3'],
      ] as const) {
        await moveImport(
          imports,
          record.importId,
          { kind: 'release-claimed', at: 20_000, staleBefore: 0, owner },
          { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: 20_001, owner },
        );
      }
      expect(await imports.releaseBacklog(10_000)).toEqual(base);
    });

    it('when several imports wait for their release, then the one completed first comes first', async () => {
      const later = await created();
      const earlier = await created();
      await complete(later, 1_200);
      await complete(earlier, 1_100);
      const ids = [later.importId, earlier.importId];
      const found = (await imports.unreleased(1_500, 1_000)).filter((record) => ids.includes(record.importId));
      expect(found.map((record) => record.importId)).toEqual([earlier.importId, later.importId]);
      const excepted = async (except: { exceptPortals?: number[]; exceptImports?: string[] }) =>
        (await imports.unreleased(1_500, 1_000, except)).filter((record) => ids.includes(record.importId)).map((record) => record.importId);
      expect(await excepted({ exceptPortals: [earlier.tenant.portalId] })).toEqual([later.importId]);
      expect(await excepted({ exceptImports: [later.importId, 'not-an-id'] })).toEqual([earlier.importId]);
    });
  });
}
