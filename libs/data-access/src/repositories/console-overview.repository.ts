import type { Connection } from 'mongoose';
import type { ErrorType, ObjectType } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/domain';
import { objectStateModel } from '../models/object-state.model';
import { objectSyncModel } from '../models/object-sync.model';
import { storeModel } from '../models/store.model';
import { syncErrorModel } from '../models/sync-error.model';
import { waitingObjectModel } from '../models/waiting-object.model';
import { consoleScopeFilter, type ConsoleScope } from './console-scope';
import { findIn } from '../find-in';
import { keyString as objectKeyString, type ObjectKey } from '../object-key';

/** The counts of one (tenant, store, object type) as stored; the domain turns them into states. */
export interface StoredObjectCounts {
  portalId: number;
  appId: string | null;
  storeId: string;
  objectType: ObjectType;
  /** Objects with a stored state (every object a message was received for). */
  received: number;
  /** Objects processed at least once. */
  processed: number;
  /** Objects linked to a live CRM object. */
  inCrm: number;
  /** Objects linked to a CRM object that was deleted (archived). */
  archivedInCrm: number;
  withOpenErrors: number;
  waiting: number;
  lastProcessedAt: number | null;
  /** What is stored about each object that waits or has an open error, for the domain to give each one state. */
  flagged: FlaggedObject[];
}

/** The stored counts of one tenant, store and type before anything is counted: the repository, its fake and test builders start here. */
export const emptyStoredCounts = (key: Pick<StoredObjectCounts, 'portalId' | 'appId' | 'storeId' | 'objectType'>): StoredObjectCounts => ({
  portalId: key.portalId,
  appId: key.appId ?? null,
  storeId: key.storeId,
  objectType: key.objectType,
  received: 0,
  processed: 0,
  inCrm: 0,
  archivedInCrm: 0,
  withOpenErrors: 0,
  waiting: 0,
  lastProcessedAt: null,
  flagged: [],
});

/** The facts of one object that waits or has an open error (the few whose state is not read from the totals). */
export interface FlaggedObject {
  waiting: boolean;
  openError: boolean;
  processed: boolean;
  crmId: number | null;
  archived: boolean;
}

/**
 * At most this many objects that wait or have open errors are looked at per overview (each kind);
 * beyond it the overview's states may overlap by the objects left out.
 */
export const FLAGGED_OBJECTS_LIMIT = 10_000;

export interface StoredOpenErrors {
  portalId: number;
  appId: string | null;
  storeId: string;
  type: ErrorType;
  count: number;
}

export interface StoredStoreLabel {
  portalId: number;
  appId: string | null;
  storeId: string;
  label: string;
}

type GroupKey = { portalId: number; appId: string | null; storeId: string; objectType?: ObjectType; type?: ErrorType };

const KEY = { portalId: '$portalId', appId: '$appId', storeId: '$storeId', objectType: '$objectType' };
const keyString = (key: GroupKey) => keyOf(key.portalId, key.appId ?? null, key.storeId, key.objectType ?? key.type ?? null);

/**
 * Counts for the console's overview, per tenant, store and object type. Every query starts with
 * the scope's portal or application, which the leading fields of the collections' indexes serve.
 */
export class ConsoleOverviewRepository {
  private readonly states;
  private readonly syncs;
  private readonly errors;
  private readonly waiting;
  private readonly stores;

  constructor(connection: Connection) {
    this.states = objectStateModel(connection).collection;
    this.syncs = objectSyncModel(connection).collection;
    this.errors = syncErrorModel(connection).collection;
    this.waiting = waitingObjectModel(connection).collection;
    this.stores = storeModel(connection).collection;
  }

  /**
   * `now`: an object counts as waiting while a change of it waits to be applied within its window,
   * as the inspector says (WaitingObjectRepository.isWaiting); an applied change waiting only to
   * associate later, or one whose window ended, does not.
   */
  async objectCounts(scope: ConsoleScope, now: number): Promise<StoredObjectCounts[]> {
    const match = consoleScopeFilter(scope);
    const waits = { reapply: { $ne: true }, until: { $gt: now } };
    const count = async (collection: typeof this.states, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      await collection
        .aggregate<{ _id: GroupKey; n: number; last?: number | null }>([
          { $match: { ...match, ...filter } },
          { $group: { _id: KEY, n: { $sum: 1 }, ...extra } },
        ])
        .toArray();
    const [received, processed, inCrm, archivedInCrm, waiting, errored, flagged] = await Promise.all([
      count(this.states, {}),
      count(this.syncs, { lastProcessedAt: { $ne: null } }, { last: { $max: '$lastProcessedAt' } }),
      count(this.syncs, { crmId: { $ne: null }, archived: { $ne: true } }),
      count(this.syncs, { crmId: { $ne: null }, archived: true }),
      count(this.waiting, waits),
      this.errors
        .aggregate<{ _id: GroupKey; n: number }>([
          { $match: { ...match, status: 'OPEN' } },
          { $group: { _id: { ...KEY, externalObjectId: '$externalObjectId' } } },
          { $group: { _id: { portalId: '$_id.portalId', appId: '$_id.appId', storeId: '$_id.storeId', objectType: '$_id.objectType' }, n: { $sum: 1 } } },
        ])
        .toArray(),
      this.flaggedObjects(match, waits),
    ]);
    const rows = new Map<string, StoredObjectCounts>();
    const row = (key: GroupKey) => {
      const id = keyString(key);
      let found = rows.get(id);
      if (!found) {
        found = emptyStoredCounts({ portalId: key.portalId, appId: key.appId ?? null, storeId: key.storeId, objectType: key.objectType! });
        rows.set(id, found);
      }
      return found;
    };
    for (const { _id, n } of received) row(_id).received = n;
    for (const { _id, n, last } of processed) Object.assign(row(_id), { processed: n, lastProcessedAt: last ?? null });
    for (const { _id, n } of inCrm) row(_id).inCrm = n;
    for (const { _id, n } of archivedInCrm) row(_id).archivedInCrm = n;
    for (const { key, facts } of flagged) row(key).flagged.push(facts);
    for (const { _id, n } of waiting) row(_id).waiting = n;
    for (const { _id, n } of errored) row(_id).withOpenErrors = n;
    return [...rows.values()];
  }

  /** The objects that wait or have an open error, each with what object_syncs holds about it (one read by _id). */
  private async flaggedObjects(match: Record<string, unknown>, waits: Record<string, unknown>): Promise<{ key: ObjectKey; facts: FlaggedObject }[]> {
    const fields = { _id: 0, portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1 };
    const [errored, waiting] = await Promise.all([
      this.errors
        .aggregate<{ _id: ObjectKey }>([
          { $match: { ...match, status: 'OPEN' } },
          { $group: { _id: { ...KEY, externalObjectId: '$externalObjectId' } } },
          { $limit: FLAGGED_OBJECTS_LIMIT },
        ])
        .toArray(),
      this.waiting
        .find({ ...match, ...waits }, { projection: fields })
        .limit(FLAGGED_OBJECTS_LIMIT)
        .toArray(),
    ]);
    const byKey = new Map<string, { key: ObjectKey; facts: FlaggedObject }>();
    const flag = (key: ObjectKey, what: 'waiting' | 'openError') => {
      const id = objectKeyString({ ...key, appId: key.appId ?? null });
      const entry = byKey.get(id) ?? {
        key: { ...key, appId: key.appId ?? null },
        facts: { waiting: false, openError: false, processed: false, crmId: null, archived: false },
      };
      entry.facts[what] = true;
      byKey.set(id, entry);
    };
    for (const { _id } of errored) flag(_id, 'openError');
    for (const doc of waiting) flag(doc as unknown as ObjectKey, 'waiting');
    if (byKey.size === 0) return [];
    const syncs = await findIn(this.syncs, '_id', [...byKey.keys()], { projection: { crmId: 1, archived: 1, lastProcessedAt: 1 } });
    for (const sync of syncs) {
      const { facts } = byKey.get(String(sync._id))!;
      Object.assign(facts, {
        processed: sync.lastProcessedAt != null,
        crmId: sync.crmId == null ? null : Number(sync.crmId),
        archived: sync.archived === true,
      });
    }
    return [...byKey.values()];
  }

  async openErrorsByType(scope: ConsoleScope): Promise<StoredOpenErrors[]> {
    const docs = await this.errors
      .aggregate<{ _id: GroupKey; n: number }>([
        { $match: { ...consoleScopeFilter(scope), status: 'OPEN' } },
        { $group: { _id: { portalId: '$portalId', appId: '$appId', storeId: '$storeId', type: '$type' }, n: { $sum: 1 } } },
      ])
      .toArray();
    return docs.map(({ _id, n }) => ({ portalId: _id.portalId, appId: _id.appId ?? null, storeId: _id.storeId, type: _id.type!, count: n }));
  }

  async storeLabels(scope: ConsoleScope): Promise<StoredStoreLabel[]> {
    const docs = await this.stores.find(consoleScopeFilter(scope), { projection: { _id: 0, portalId: 1, appId: 1, storeId: 1, label: 1 } }).toArray();
    return docs.map((doc) => ({ portalId: doc.portalId, appId: doc.appId ?? null, storeId: doc.storeId, label: doc.label }));
  }
}
