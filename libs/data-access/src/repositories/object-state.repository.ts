import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { ObjectScope, ObjectType, PropertyValue, Tenant } from '@ecomm-sync/contracts';
import { nextRevision, type OldestUnapplied, type RawObjectState } from '@ecomm-sync/domain';
import { objectStateModel } from '../models/object-state.model';
import { objectSyncModel } from '../models/object-sync.model';
import { findIn } from '../find-in';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keyFields, keyStrings } from '../object-key';
import { onlyDuplicateKeyErrors } from '../duplicate-key';
import { sweepUnapplied, UNAPPLIED_SWEEP, type UnappliedSweep } from './unapplied-sweep';

export interface StoredObjectState {
  externalObjectId: string;
  state: RawObjectState;
  rev: number;
}

export interface StateWrite {
  externalObjectId: string;
  state: RawObjectState;
  /** Revision read before merging; null when the object had no state. */
  expectedRev: number | null;
}

export interface OwnedObjectState extends StoredObjectState {
  id: string;
  tenant: Tenant;
  storeId: string;
}

interface StateDoc {
  _id: string;
  portalId: number;
  appId: string | null;
  storeId: string;
  externalObjectId: string;
  properties: [string, PropertyValue, number][];
  associations: [ObjectType, string[], number][];
  deletedAt: number | null;
  upsertedAt: number | null;
  rev: number;
  writeToken: string;
}

const toState = (doc: StateDoc): RawObjectState => ({
  properties: Object.fromEntries(doc.properties.map(([name, value, changedAt]) => [name, { value, changedAt }])),
  associations: Object.fromEntries(doc.associations.map(([type, ids, changedAt]) => [type, { value: ids, changedAt }])),
  deletedAt: doc.deletedAt,
  upsertedAt: doc.upsertedAt,
});

const toFields = (state: RawObjectState) => ({
  properties: Object.entries(state.properties).map(([name, entry]) => [name, entry.value, entry.changedAt]),
  associations: Object.entries(state.associations).map(([type, entry]) => [type, entry!.value, entry!.changedAt]),
  deletedAt: state.deletedAt,
  upsertedAt: state.upsertedAt,
});

/**
 * Merged raw states, written with optimistic concurrency: a write only lands if the revision is
 * still the one read. Losers are reported so the caller merges again onto the newer state.
 */
export class ObjectStateRepository {
  private readonly states;
  /** The statuses the applier records (same `_id`): read only to clear the sync lag's markers. */
  private readonly syncs;

  constructor(connection: Connection) {
    this.states = driverCollection<KeyedDoc>(objectStateModel(connection));
    this.syncs = driverCollection<KeyedDoc>(objectSyncModel(connection));
  }

  async findMany(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, StoredObjectState>> {
    const docs = await findIn(this.states, '_id', keyStrings(scope, externalObjectIds), {
      projection: { _id: 0, portalId: 0, appId: 0, storeId: 0, objectType: 0 },
    });
    return new Map(
      (docs as unknown as StateDoc[]).map((doc) => [doc.externalObjectId, { externalObjectId: doc.externalObjectId, state: toState(doc), rev: doc.rev }]),
    );
  }

  /** Inserts states of objects that have none yet (first revision from the clock, nextRevision); fails on an object that exists. */
  async insertNew(scope: ObjectScope, objects: readonly { externalObjectId: string; state: RawObjectState }[]): Promise<void> {
    if (objects.length === 0) return;
    const keys = keyStrings(
      scope,
      objects.map((object) => object.externalObjectId),
    );
    const rev = nextRevision(null, Date.now());
    await this.states.insertMany(
      objects.map(({ externalObjectId, state }, i) => ({ _id: keys[i], ...keyFields(scope, externalObjectId), ...toFields(state), rev, writeToken: 'insert' })),
      { ordered: false },
    );
  }

  /**
   * The objects a settings owner's data filter selects, in pages of `pageSize`, in _id order after
   * `afterId`: re-apply walks them with bounded memory and can resume from the last id. One sorted
   * cursor serves every page the caller takes (the development server sorts once per query, not
   * once per page); stop early by leaving the loop, which closes it.
   */
  async *pagesForOwner(
    filter: { appId: string } | { portalId: number; appId: null },
    objectType: ObjectType,
    afterId: string | null,
    pageSize: number,
  ): AsyncGenerator<OwnedObjectState[]> {
    const query: Record<string, unknown> = { ...filter, objectType };
    if (afterId) query._id = { $gt: afterId };
    const cursor = this.states.find(query).sort({ _id: 1 }).batchSize(pageSize);
    try {
      let page: OwnedObjectState[] = [];
      for await (const found of cursor) {
        const doc = found as unknown as StateDoc;
        page.push({
          id: doc._id,
          tenant: { portalId: doc.portalId, appId: doc.appId ?? null },
          storeId: doc.storeId,
          externalObjectId: doc.externalObjectId,
          state: toState(doc),
          rev: doc.rev,
        });
        if (page.length === pageSize) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    } finally {
      await cursor.close();
    }
  }

  /**
   * Writes states; returns the new revision of each write that landed and the ids that lost a race.
   * Each written object waits to be applied since it was accepted (`receivedAt`, a sync batch's
   * receipt; now without one), or since an older revision not applied yet was.
   */
  async saveMany(scope: ObjectScope & { receivedAt?: number }, writes: readonly StateWrite[]): Promise<{ saved: Map<string, number>; conflicts: string[] }> {
    const saved = new Map<string, number>();
    if (writes.length === 0) return { saved, conflicts: [] };
    const writeToken = randomUUID();
    // Revisions follow the clock (nextRevision): a state stored anew starts above any a vanished one reached.
    const now = Date.now();
    const unappliedSince = scope.receivedAt ?? now;
    const revisionOf = (write: StateWrite) => nextRevision(write.expectedRev, now);
    const ids = writes.map((write) => write.externalObjectId);
    const keys = keyStrings(scope, ids);
    const operations = writes.map((write, i) =>
      write.expectedRev === null
        ? {
            insertOne: {
              document: {
                _id: keys[i],
                ...keyFields(scope, write.externalObjectId),
                ...toFields(write.state),
                rev: revisionOf(write),
                writeToken,
                unappliedSince,
              },
            },
          }
        : {
            updateOne: {
              filter: { _id: keys[i], rev: write.expectedRev },
              update: { $set: { ...toFields(write.state), rev: revisionOf(write), writeToken }, $min: { unappliedSince } },
            },
          },
    );
    try {
      const result = await this.states.bulkWrite(operations, { ordered: false });
      // Every insert inserted and every conditional update matched: all writes landed, no read-back needed.
      const inserts = writes.filter((write) => write.expectedRev === null).length;
      if (result.insertedCount === inserts && result.matchedCount === writes.length - inserts) {
        for (const write of writes) saved.set(write.externalObjectId, revisionOf(write));
        return { saved, conflicts: [] };
      }
    } catch (error) {
      // Two first writers of one object: the loser's insert hits the unique key.
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
    const after = await findIn(this.states, '_id', keys, { projection: { externalObjectId: 1, writeToken: 1, rev: 1 } });
    const won = new Map(after.filter((doc) => doc.writeToken === writeToken).map((doc) => [doc.externalObjectId as string, doc.rev as number]));
    for (const [id, rev] of won) saved.set(id, rev);
    return { saved, conflicts: ids.filter((id) => !won.has(id)) };
  }

  /** Which of the objects have a stored state (their ids only are read). */
  async stored(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Set<string>> {
    const docs = await findIn(this.states, '_id', keyStrings(scope, externalObjectIds), { projection: { _id: 0, externalObjectId: 1 } });
    return new Set(docs.map((doc) => doc.externalObjectId as string));
  }

  /** Whether the tenant has received any object in the store (index {portalId, appId, storeId, unappliedSince}). */
  async hasObjectsIn(tenant: Tenant, storeId: string): Promise<boolean> {
    return (await this.states.findOne({ portalId: tenant.portalId, appId: tenant.appId, storeId }, { projection: { _id: 1 } })) !== null;
  }

  /**
   * When the tenant's (or its store's) oldest object not applied yet was accepted; null: none waits;
   * LAG_NOT_KNOWN: this read's share of the sweep ended before it could tell (sweepUnapplied).
   */
  async oldestUnapplied(tenant: Tenant, storeId: string | null, sweep: UnappliedSweep = UNAPPLIED_SWEEP): Promise<OldestUnapplied> {
    return sweepUnapplied(this.states, this.syncs, { portalId: tenant.portalId, appId: tenant.appId, ...(storeId === null ? {} : { storeId }) }, sweep);
  }
}
