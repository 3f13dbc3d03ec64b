import type { Connection } from 'mongoose';
import type { ErrorType, ObjectType } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/util';
import { objectStateModel } from '../models/object-state.model';
import { objectSyncModel } from '../models/object-sync.model';
import { storeModel } from '../models/store.model';
import { syncErrorModel } from '../models/sync-error.model';
import { waitingObjectModel } from '../models/waiting-object.model';
import { consoleScopeFilter, type ConsoleScope } from './console-scope';

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
  withOpenErrors: number;
  waiting: number;
  lastProcessedAt: number | null;
}

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

  async objectCounts(scope: ConsoleScope): Promise<StoredObjectCounts[]> {
    const match = consoleScopeFilter(scope);
    const count = async (collection: typeof this.states, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      await collection
        .aggregate<{ _id: GroupKey; n: number; last?: number | null }>([
          { $match: { ...match, ...filter } },
          { $group: { _id: KEY, n: { $sum: 1 }, ...extra } },
        ])
        .toArray();
    const [received, processed, inCrm, waiting, errored] = await Promise.all([
      count(this.states, {}),
      count(this.syncs, { lastProcessedAt: { $ne: null } }, { last: { $max: '$lastProcessedAt' } }),
      count(this.syncs, { crmId: { $ne: null }, archived: { $ne: true } }),
      count(this.waiting, {}),
      this.errors
        .aggregate<{ _id: GroupKey; n: number }>([
          { $match: { ...match, status: 'OPEN' } },
          { $group: { _id: { ...KEY, externalObjectId: '$externalObjectId' } } },
          { $group: { _id: { portalId: '$_id.portalId', appId: '$_id.appId', storeId: '$_id.storeId', objectType: '$_id.objectType' }, n: { $sum: 1 } } },
        ])
        .toArray(),
    ]);
    const rows = new Map<string, StoredObjectCounts>();
    const row = (key: GroupKey) => {
      const id = keyString(key);
      let found = rows.get(id);
      if (!found) {
        found = {
          portalId: key.portalId,
          appId: key.appId ?? null,
          storeId: key.storeId,
          objectType: key.objectType!,
          received: 0,
          processed: 0,
          inCrm: 0,
          withOpenErrors: 0,
          waiting: 0,
          lastProcessedAt: null,
        };
        rows.set(id, found);
      }
      return found;
    };
    for (const { _id, n } of received) row(_id).received = n;
    for (const { _id, n, last } of processed) Object.assign(row(_id), { processed: n, lastProcessedAt: last ?? null });
    for (const { _id, n } of inCrm) row(_id).inCrm = n;
    for (const { _id, n } of waiting) row(_id).waiting = n;
    for (const { _id, n } of errored) row(_id).withOpenErrors = n;
    return [...rows.values()];
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
