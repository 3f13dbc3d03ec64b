import type { ObjectScope, ObjectType, Tenant } from '@ecomm-sync/contracts';
import {
  UNAPPLIED_SWEEP,
  type ObjectKey,
  type ObjectStateRepository,
  type ObjectSyncRepository,
  type OwnedObjectState,
  type StateWrite,
  type StoredObjectState,
  type UnappliedSweep,
} from '@ecomm-sync/data-access';
import { keyOf, LAG_NOT_KNOWN, nextRevision, waitingSince, type OldestUnapplied, type RawObjectState } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

type Row = OwnedObjectState & { objectType: ObjectType };

/** The natural key as the real repository's `_id` (data-access object-key.ts): pages go in its order. */
const objectKey = ({ tenant, storeId, objectType }: ObjectScope, externalObjectId: string) =>
  keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId);

const duplicateKey = (ids: string[]) => Object.assign(new Error(`E11000 duplicate key error: ${ids.join(', ')}`), { code: 11000 });

/**
 * ObjectStateRepository in memory: compare and set on the revision, revisions from nextRevision and
 * the clock; since when each object waits to be applied, as the real one marks it, cleared by the
 * read of the sync lag against the statuses in `syncs` (none given: no object was processed).
 */
export class FakeObjectStateRepository implements PublicOf<ObjectStateRepository> {
  private readonly rows = new Map<string, Row>();
  private readonly unappliedSince = new Map<string, number>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly syncs?: Pick<PublicOf<ObjectSyncRepository>, 'findMany'>,
  ) {}

  /** The key of every stored state: for the fakes of the console's read models. */
  scan(): ObjectKey[] {
    return [...this.rows.values()].map((row) => ({
      portalId: row.tenant.portalId,
      appId: row.tenant.appId,
      storeId: row.storeId,
      objectType: row.objectType,
      externalObjectId: row.externalObjectId,
    }));
  }

  async findMany(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, StoredObjectState>> {
    const found = new Map<string, StoredObjectState>();
    for (const id of externalObjectIds) {
      const row = this.rows.get(objectKey(scope, id));
      if (row) found.set(id, { externalObjectId: id, state: copy(row.state), rev: row.rev });
    }
    return found;
  }

  async insertNew(scope: ObjectScope, objects: readonly { externalObjectId: string; state: RawObjectState }[]): Promise<void> {
    const rev = nextRevision(null, this.clock());
    const existing: string[] = [];
    for (const { externalObjectId, state } of objects) {
      // Like an unordered insertMany: the others are inserted, then the duplicates fail the call.
      if (!this.put(scope, externalObjectId, state, rev, true)) existing.push(externalObjectId);
    }
    if (existing.length > 0) throw duplicateKey(existing);
  }

  async *pagesForOwner(
    filter: { appId: string } | { portalId: number; appId: null },
    objectType: ObjectType,
    afterId: string | null,
    pageSize: number,
  ): AsyncGenerator<OwnedObjectState[]> {
    const selected = [...this.rows.values()]
      .filter(
        (row) => row.objectType === objectType && row.tenant.appId === filter.appId && (!('portalId' in filter) || row.tenant.portalId === filter.portalId),
      )
      .filter((row) => afterId === null || row.id > afterId)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    for (let from = 0; from < selected.length; from += pageSize) {
      yield selected.slice(from, from + pageSize).map(({ objectType: _type, ...owned }) => copy(owned));
    }
  }

  async saveMany(scope: ObjectScope & { receivedAt?: number }, writes: readonly StateWrite[]): Promise<{ saved: Map<string, number>; conflicts: string[] }> {
    const saved = new Map<string, number>();
    const conflicts: string[] = [];
    const now = this.clock();
    const acceptedAt = scope.receivedAt ?? now;
    for (const write of writes) {
      const current = this.rows.get(objectKey(scope, write.externalObjectId));
      const landed = write.expectedRev === null ? !current : current?.rev === write.expectedRev;
      const rev = nextRevision(write.expectedRev, now);
      if (landed) {
        this.put(scope, write.externalObjectId, write.state, rev, false);
        const key = objectKey(scope, write.externalObjectId);
        this.unappliedSince.set(key, Math.min(acceptedAt, this.unappliedSince.get(key) ?? acceptedAt));
        saved.set(write.externalObjectId, rev);
      } else conflicts.push(write.externalObjectId);
    }
    return { saved, conflicts };
  }

  async stored(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Set<string>> {
    return new Set(externalObjectIds.filter((id) => this.rows.has(objectKey(scope, id))));
  }

  async hasObjectsIn(tenant: Tenant, storeId: string): Promise<boolean> {
    return [...this.rows.values()].some((row) => row.tenant.portalId === tenant.portalId && row.tenant.appId === tenant.appId && row.storeId === storeId);
  }

  async oldestUnapplied(tenant: Tenant, storeId: string | null, sweep: UnappliedSweep = UNAPPLIED_SWEEP): Promise<OldestUnapplied> {
    const marked = [...this.unappliedSince]
      .map(([key, since]) => ({ key, row: this.rows.get(key)!, since }))
      .filter(({ row }) => row.tenant.portalId === tenant.portalId && row.tenant.appId === tenant.appId && (storeId === null || row.storeId === storeId))
      .sort((a, b) => a.since - b.since || (a.key < b.key ? -1 : 1))
      .map(({ key, row, since }) => ({ key, row, rev: row.rev, since }));
    // The same sweep as the real repository's (sweepUnapplied), over the map.
    let oldest: number | null = null;
    let lastJudged = -Infinity;
    for (let pages = 0; pages < sweep.maxPages; pages++) {
      const page = marked.slice(pages * sweep.pageSize, (pages + 1) * sweep.pageSize);
      if (page.length === 0) return oldest;
      let cleared = 0;
      for (const state of page) {
        const { tenant: owner, storeId: store, objectType, externalObjectId } = state.row;
        const sync = (await this.syncs?.findMany({ tenant: owner, storeId: store, objectType }, [externalObjectId]))?.get(externalObjectId);
        const since = waitingSince({ since: state.since, rev: state.rev, appliedRev: sync?.appliedRev ?? 0 });
        // Compare and set on the revision read: a state written meanwhile keeps its marker.
        if (since === null) {
          if (this.rows.get(state.key)?.rev === state.rev) this.unappliedSince.delete(state.key);
          cleared++;
        } else oldest = Math.min(oldest ?? Infinity, since);
      }
      lastJudged = page[page.length - 1].since;
      if (page.length < sweep.pageSize) return oldest;
      if (oldest !== null && oldest <= lastJudged && cleared === 0) return oldest;
    }
    return oldest !== null && oldest <= lastJudged ? oldest : LAG_NOT_KNOWN;
  }

  private put(scope: ObjectScope, externalObjectId: string, state: RawObjectState, rev: number, onlyNew: boolean): boolean {
    const id = objectKey(scope, externalObjectId);
    if (onlyNew && this.rows.has(id)) return false;
    const { tenant, storeId, objectType } = scope;
    this.rows.set(id, { id, tenant: { portalId: tenant.portalId, appId: tenant.appId }, storeId, objectType, externalObjectId, state: copy(state), rev });
    return true;
  }
}
