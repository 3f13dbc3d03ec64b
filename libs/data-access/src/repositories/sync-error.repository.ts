import { Types, type Connection } from 'mongoose';
import type { CrmAnswer, ErrorStatus, ErrorType, ObjectScope, ObjectType, Tenant } from '@ecomm-sync/contracts';
import { syncErrorModel } from '../models/sync-error.model';
import { keyFilter, type ObjectKey } from '../object-key';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

export interface SyncError {
  portalId: number;
  appId: string | null;
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
  type: ErrorType;
  details: string;
  changedAt: number;
  erroredAt: number;
  status: ErrorStatus;
  /** When the CRM refused the write: its status, category and correlation id. */
  crm?: CrmAnswer;
  /** The batch this error waits for, set aside before it was merged: only that batch's merge resolves it (NewSyncError). */
  setAsideBatchId?: string;
}

export interface NewSyncError {
  externalObjectId: string;
  rev: number;
  settingsRev: number;
  type: ErrorType;
  details: string;
  changedAt: number;
  erroredAt: number;
  crm?: CrmAnswer;
  /**
   * The batch an error says was set aside before it was merged (the mapper's dead letters): such an
   * error stays open until that batch is merged (`resolveSetAside`), whatever else the object does.
   */
  setAsideBatchId?: string;
}

/** How `record` treats what was stored before. */
export interface RecordOptions {
  /** An error recorded before under the same key is open again with these details (set-aside errors are all keyed at revision 0). */
  reopen?: boolean;
  /** Resolve the object's other open errors (default): false when what is recorded did not process the object (a batch set aside). */
  resolveOthers?: boolean;
}

/** Open errors that other processing of the object resolves: not those of a batch set aside, which only its merge resolves. */
const NOT_SET_ASIDE = { setAsideBatchId: null };

export interface ErrorQuery {
  /** undefined: every portal of the application (then appId is required), or those of portalIds. */
  portalId?: number;
  /** With portalId undefined: only these portals (an application-wide read: the portals that have it installed now). */
  portalIds?: readonly number[];
  /** undefined: every application of the portal and its direct use. */
  appId?: string | null;
  includeResolved: boolean;
  /** Only errors of this status (the console's open/resolved filter); wins over includeResolved. */
  status?: ErrorStatus;
  errorType?: ErrorType;
  objectType?: ObjectType;
  /** Only the errors of this store (the console's filter). */
  storeId?: string;
  /** true: only errors that wait for a set-aside batch (setAsideBatchId); false: only the others; undefined: both. */
  setAside?: boolean;
  limit: number;
  offset: number;
}

const PROJECTION = {
  _id: 0,
  portalId: 1,
  appId: 1,
  storeId: 1,
  objectType: 1,
  externalObjectId: 1,
  type: 1,
  details: 1,
  changedAt: 1,
  erroredAt: 1,
  status: 1,
  crm: 1,
  setAsideBatchId: 1,
};

/** The page of one object's errors read when none is named: the newest 200 (SPEC.md: errors per page at most 200). */
export const OBJECT_ERRORS_PAGE = { offset: 0, limit: 200 } as const;
export class SyncErrorRepository {
  private readonly errors;

  constructor(connection: Connection) {
    this.errors = syncErrorModel(connection);
  }

  /**
   * Records errors of processed revisions as OPEN (once per revision, settings revision and type,
   * so a redelivery adds nothing) and resolves the object's other open errors but those of batches
   * set aside: only the newest processing's errors stay open. `reopen`: an error recorded before
   * under the same key is open again with these details (a batch set aside again after its first
   * setting aside was resolved: set-aside errors are all keyed at revision 0).
   */
  async record(
    { tenant, storeId, objectType }: ObjectScope,
    errors: readonly NewSyncError[],
    { reopen = false, resolveOthers = true }: RecordOptions = {},
  ): Promise<void> {
    if (errors.length === 0) return;
    const base = { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType };
    const inserts = errors.map((error) => {
      const fields = {
        details: error.details,
        ...(error.crm ? { crm: error.crm } : {}),
        ...(error.setAsideBatchId ? { setAsideBatchId: error.setAsideBatchId } : {}),
        changedAt: error.changedAt,
        erroredAt: error.erroredAt,
        status: 'OPEN',
        resolvedAt: null,
      };
      return {
        updateOne: {
          filter: { ...base, externalObjectId: error.externalObjectId, rev: error.rev, settingsRev: error.settingsRev, type: error.type },
          update: reopen ? { $set: fields } : { $setOnInsert: fields },
          upsert: true,
        },
      };
    });
    try {
      await this.errors.collection.bulkWrite(inserts, { ordered: false });
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
    if (!resolveOthers) return;
    const newest = new Map<string, NewSyncError>();
    for (const error of errors) newest.set(error.externalObjectId, error);
    await this.errors.collection.bulkWrite(
      [...newest.values()].map((error) => ({
        updateMany: {
          filter: {
            ...base,
            externalObjectId: error.externalObjectId,
            status: 'OPEN',
            ...NOT_SET_ASIDE,
            $or: [{ rev: { $ne: error.rev } }, { settingsRev: { $ne: error.settingsRev } }],
          },
          update: { $set: { status: 'RESOLVED', resolvedAt: error.erroredAt } },
        },
      })),
      { ordered: false },
    );
  }

  /** Resolves the open errors of objects that have since synced correctly (not those of a batch set aside: its data never came). */
  async resolve(scope: ObjectScope, externalObjectIds: readonly string[], at: number): Promise<void> {
    await this.resolveOpen(scope, externalObjectIds, NOT_SET_ASIDE, at);
  }

  /** Resolves the open errors that said this batch was set aside, of these objects: the batch is merged now. */
  async resolveSetAside(scope: ObjectScope, batchId: string, externalObjectIds: readonly string[], at: number): Promise<void> {
    await this.resolveOpen(scope, externalObjectIds, { setAsideBatchId: batchId }, at);
  }

  /** Resolves every open error of a tenant's store, set-aside ones too (the store was deleted: nothing more is sent for it); answers how many. */
  async resolveStore(tenant: Tenant, storeId: string, at: number): Promise<number> {
    const result = await this.errors.collection.updateMany(
      { portalId: tenant.portalId, appId: tenant.appId, storeId, status: 'OPEN' },
      { $set: { status: 'RESOLVED', resolvedAt: at } },
    );
    return result.modifiedCount;
  }

  private async resolveOpen(
    { tenant, storeId, objectType }: ObjectScope,
    externalObjectIds: readonly string[],
    which: { setAsideBatchId: string | null },
    at: number,
  ): Promise<void> {
    if (externalObjectIds.length === 0) return;
    await this.errors.collection.updateMany(
      { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType, externalObjectId: { $in: [...externalObjectIds] }, status: 'OPEN', ...which },
      { $set: { status: 'RESOLVED', resolvedAt: at } },
    );
  }

  /**
   * A portal's open errors of one type in insertion order after `afterId` (of one tenant when
   * `appId` is given, null for direct mode): the objects a catch-up applies again.
   */
  async pageOpenOfType(
    portalId: number,
    appId: string | null | undefined,
    type: ErrorType,
    afterId: string | null,
    limit: number,
  ): Promise<{ id: string; key: ObjectKey }[]> {
    const filter: Record<string, unknown> = { portalId, type, status: 'OPEN' };
    if (appId !== undefined) filter.appId = appId;
    if (afterId) filter._id = { $gt: new Types.ObjectId(afterId) };
    const docs = await this.errors.collection
      .find(filter, { projection: { _id: 1, portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({
      id: String(doc._id),
      key: { portalId: doc.portalId, appId: doc.appId ?? null, storeId: doc.storeId, objectType: doc.objectType, externalObjectId: doc.externalObjectId },
    }));
  }

  async list(query: ErrorQuery): Promise<{ errors: SyncError[]; hasMore: boolean }> {
    if (query.portalId === undefined && !query.appId) throw new Error('an error listing needs a portal or an application');
    const filter: Record<string, unknown> = {};
    if (query.portalId !== undefined) filter.portalId = query.portalId;
    else if (query.portalIds !== undefined) filter.portalId = { $in: [...query.portalIds] };
    if (query.appId !== undefined) filter.appId = query.appId;
    if (!query.includeResolved) filter.status = 'OPEN';
    if (query.status) filter.status = query.status;
    if (query.errorType) filter.type = query.errorType;
    if (query.objectType) filter.objectType = query.objectType;
    if (query.storeId) filter.storeId = query.storeId;
    if (query.setAside !== undefined) filter.setAsideBatchId = query.setAside ? { $type: 'string' } : null;
    const docs = await this.errors.collection
      .find(filter, { projection: PROJECTION })
      .sort({ erroredAt: -1, _id: -1 })
      .skip(query.offset)
      .limit(query.limit + 1)
      .toArray();
    return { errors: docs.slice(0, query.limit) as unknown as SyncError[], hasMore: docs.length > query.limit };
  }

  /**
   * One object's errors, newest first, a page at a time (the newest 200 unless told): an object
   * that failed at every revision for a year keeps thousands of resolved ones.
   */
  async listForObject(key: ObjectKey, includeResolved: boolean, page: { offset: number; limit: number } = OBJECT_ERRORS_PAGE): Promise<SyncError[]> {
    const filter: Record<string, unknown> = keyFilter(key);
    if (!includeResolved) filter.status = 'OPEN';
    const docs = await this.errors.collection
      .find(filter, { projection: PROJECTION })
      .sort({ erroredAt: -1, _id: -1 })
      .skip(page.offset)
      .limit(page.limit)
      .toArray();
    return docs as unknown as SyncError[];
  }
}
