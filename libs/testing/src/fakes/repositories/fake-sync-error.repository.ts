import type { ErrorType, ObjectScope, Tenant } from '@ecomm-sync/contracts';
import {
  OBJECT_ERRORS_PAGE,
  type ErrorQuery,
  type NewSyncError,
  type ObjectKey,
  type RecordOptions,
  type SyncError,
  type SyncErrorRepository,
} from '@ecomm-sync/data-access';
import { newObjectId } from '../object-ids';
import { copy, type PublicOf } from '../public-of';

type Row = SyncError & { id: string; rev: number; settingsRev: number };

const shown = ({ id: _id, rev: _rev, settingsRev: _settingsRev, ...error }: Row): SyncError => copy(error);
/** Newest first, as the real listings sort (erroredAt, then insertion). */
const newestFirst = (a: Row, b: Row) => b.erroredAt - a.erroredAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * SyncErrorRepository in memory: one record per (object, revision, settings revision, type); the
 * newest processing's errors stay open.
 */
export class FakeSyncErrorRepository implements PublicOf<SyncErrorRepository> {
  private readonly rows: Row[] = [];

  /** Every error stored, open or resolved: for the fakes of the console's read models. */
  scan(): SyncError[] {
    return this.rows.map(shown);
  }

  async record(
    { tenant, storeId, objectType }: ObjectScope,
    errors: readonly NewSyncError[],
    { reopen = false, resolveOthers = true }: RecordOptions = {},
  ): Promise<void> {
    const base = { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType };
    for (const error of errors) {
      const same = (row: Row) =>
        this.isObject(row, base, error.externalObjectId) && row.rev === error.rev && row.settingsRev === error.settingsRev && row.type === error.type;
      const found = this.rows.find(same);
      if (found && reopen) {
        const { details, changedAt, erroredAt, crm, setAsideBatchId } = error;
        Object.assign(found, { details, changedAt, erroredAt, status: 'OPEN' }, crm ? { crm } : {}, setAsideBatchId ? { setAsideBatchId } : {});
      }
      if (found) continue;
      const { externalObjectId, rev, settingsRev, type, details, changedAt, erroredAt, crm, setAsideBatchId } = error;
      this.rows.push({
        ...base,
        id: newObjectId(),
        externalObjectId,
        rev,
        settingsRev,
        type,
        details,
        ...(crm ? { crm } : {}),
        changedAt,
        erroredAt,
        status: 'OPEN',
        ...(setAsideBatchId ? { setAsideBatchId } : {}),
      });
    }
    if (!resolveOthers) return;
    const newest = new Map<string, NewSyncError>();
    for (const error of errors) newest.set(error.externalObjectId, error);
    for (const error of newest.values()) {
      for (const row of this.rows) {
        if (
          this.isObject(row, base, error.externalObjectId) &&
          row.status === 'OPEN' &&
          !row.setAsideBatchId &&
          (row.rev !== error.rev || row.settingsRev !== error.settingsRev)
        )
          row.status = 'RESOLVED';
      }
    }
  }

  async resolve({ tenant, storeId, objectType }: ObjectScope, externalObjectIds: readonly string[], _at: number): Promise<void> {
    const base = { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType };
    for (const row of this.rows)
      if (row.status === 'OPEN' && !row.setAsideBatchId && externalObjectIds.some((id) => this.isObject(row, base, id))) row.status = 'RESOLVED';
  }

  async resolveStore(tenant: Tenant, storeId: string, _at: number): Promise<number> {
    let resolved = 0;
    for (const row of this.rows) {
      if (row.status !== 'OPEN' || row.portalId !== tenant.portalId || (row.appId ?? null) !== tenant.appId || row.storeId !== storeId) continue;
      row.status = 'RESOLVED';
      resolved++;
    }
    return resolved;
  }

  async resolveSetAside({ tenant, storeId, objectType }: ObjectScope, batchId: string, externalObjectIds: readonly string[], _at: number): Promise<void> {
    const base = { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType };
    for (const row of this.rows)
      if (row.status === 'OPEN' && row.setAsideBatchId === batchId && externalObjectIds.some((id) => this.isObject(row, base, id))) row.status = 'RESOLVED';
  }

  async pageOpenOfType(
    portalId: number,
    appId: string | null | undefined,
    type: ErrorType,
    afterId: string | null,
    limit: number,
  ): Promise<{ id: string; key: ObjectKey }[]> {
    return this.rows
      .filter(
        (row) =>
          row.portalId === portalId &&
          row.type === type &&
          row.status === 'OPEN' &&
          (appId === undefined || row.appId === appId) &&
          (!afterId || row.id > afterId),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((row) => ({
        id: row.id,
        key: { portalId: row.portalId, appId: row.appId, storeId: row.storeId, objectType: row.objectType, externalObjectId: row.externalObjectId },
      }));
  }

  async list(query: ErrorQuery): Promise<{ errors: SyncError[]; hasMore: boolean }> {
    if (query.portalId === undefined && !query.appId) throw new Error('an error listing needs a portal or an application');
    const status = query.status ?? (query.includeResolved ? undefined : 'OPEN');
    const found = this.rows
      .filter(
        (row) =>
          (query.portalId === undefined || row.portalId === query.portalId) &&
          (query.portalId !== undefined || query.portalIds === undefined || query.portalIds.includes(row.portalId)) &&
          (query.appId === undefined || row.appId === query.appId) &&
          (status === undefined || row.status === status) &&
          (!query.errorType || row.type === query.errorType) &&
          (!query.objectType || row.objectType === query.objectType) &&
          (!query.storeId || row.storeId === query.storeId) &&
          (query.setAside === undefined || Boolean(row.setAsideBatchId) === query.setAside),
      )
      .sort(newestFirst)
      .slice(query.offset, query.offset + query.limit + 1);
    return { errors: found.slice(0, query.limit).map(shown), hasMore: found.length > query.limit };
  }

  async listForObject(key: ObjectKey, includeResolved: boolean, page: { offset: number; limit: number } = OBJECT_ERRORS_PAGE): Promise<SyncError[]> {
    return this.rows
      .filter((row) => this.isObject(row, key, key.externalObjectId) && (includeResolved || row.status === 'OPEN'))
      .sort(newestFirst)
      .slice(page.offset, page.offset + page.limit)
      .map(shown);
  }

  private isObject(row: Row, base: Omit<ObjectKey, 'externalObjectId'>, externalObjectId: string): boolean {
    return (
      row.portalId === base.portalId &&
      row.appId === base.appId &&
      row.storeId === base.storeId &&
      row.objectType === base.objectType &&
      row.externalObjectId === externalObjectId
    );
  }
}
