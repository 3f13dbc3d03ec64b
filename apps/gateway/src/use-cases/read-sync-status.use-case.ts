import {
  DEFAULT_STORE_ID,
  type ObjectScope,
  type ObjectType,
  type Tenant,
  type V1SyncErrorRecord,
  type V1SyncStatus,
  type V2SyncErrorRecord,
  type V2SyncStatus,
} from '@ecomm-sync/contracts';
import type { ErrorQuery, ObjectKey, Repositories, SyncError } from '@ecomm-sync/data-access';
import { describeCrmWait, isWaiting, type CrmWaitReason } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';

/** Whether a portal's CRM takes its changes now, and if not, why and until when (docs/decisions/0023). */
export interface CrmHealth {
  portalId: number;
  state: 'ok' | CrmWaitReason;
  message: string;
  since: number | null;
  until: number | null;
  lastAnswer: string | null;
  /** Failed tries of the CRM in a row. */
  tries: number;
  parkedChanges: number;
}

export const toV1ErrorRecord = (error: SyncError): V1SyncErrorRecord => ({
  portalId: error.portalId,
  objectType: error.objectType,
  integratorObjectId: error.externalObjectId,
  changeOccurredTimestamp: error.changedAt,
  errorTimestamp: error.erroredAt,
  type: error.type,
  details: error.details,
  status: error.status,
});

export const toV2ErrorRecord = (error: SyncError): V2SyncErrorRecord => ({
  portalId: error.portalId,
  storeId: error.storeId,
  objectType: error.objectType,
  externalObjectId: error.externalObjectId,
  changedAt: error.changedAt,
  erroredAt: error.erroredAt,
  type: error.type,
  details: error.details,
  status: error.status,
});

/** Per-object status and error listings, read from what the applier recorded. */
export class ReadSyncStatusUseCase {
  constructor(private readonly repositories: Pick<Repositories, 'objectSyncs' | 'objectStates' | 'syncErrors' | 'crmWaits' | 'parkedChanges'>) {}

  /** The portal's CRM health: a wait that has ended but whose parked changes are still being applied reads as resuming. */
  async crmHealth(portalId: number, now = Date.now()): Promise<CrmHealth> {
    const [wait, parkedChanges] = await Promise.all([this.repositories.crmWaits.find(portalId), this.repositories.parkedChanges.count(portalId)]);
    if (!wait) return { portalId, state: 'ok', message: 'the CRM takes changes', since: null, until: null, lastAnswer: null, tries: 0, parkedChanges };
    const message = isWaiting(wait, now) ? describeCrmWait(wait, portalId) : `resuming: ${parkedChanges} parked changes are being applied`;
    return { portalId, state: wait.reason, message, since: wait.since, until: wait.until, lastAnswer: wait.lastAnswer, tries: wait.tries, parkedChanges };
  }

  async v2Status(scope: ObjectScope, externalObjectId: string): Promise<V2SyncStatus> {
    const { tenant, storeId, objectType } = scope;
    const key = { ...tenant, storeId, objectType, externalObjectId };
    const [sync, errors] = await Promise.all([this.repositories.objectSyncs.findOne(key), this.repositories.syncErrors.listForObject(key, false)]);
    // An object with an open error was received even without a state (its batch was set aside before it merged).
    if (!sync && errors.length === 0) await this.requireReceived(scope, externalObjectId);
    return {
      storeId,
      objectType,
      externalObjectId,
      crmId: sync && !sync.archived ? sync.crmId : null,
      lastProcessedAt: sync?.lastProcessedAt ?? null,
      errors: errors.map(toV2ErrorRecord),
    };
  }

  async v1Status(tenant: Tenant, objectType: ObjectType, externalObjectId: string): Promise<V1SyncStatus> {
    const status = await this.v2Status({ tenant, storeId: DEFAULT_STORE_ID, objectType }, externalObjectId);
    return {
      objectType,
      externalObjectId,
      lastProcessedAt: status.lastProcessedAt,
      numErrors: status.errors.length,
      crmId: status.crmId,
    };
  }

  listErrors(query: ErrorQuery) {
    return this.repositories.syncErrors.list(query);
  }

  objectErrors(key: ObjectKey, includeResolved: boolean, page: { offset: number; limit: number }) {
    return this.repositories.syncErrors.listForObject(key, includeResolved, page);
  }

  private async requireReceived(scope: ObjectScope, externalObjectId: string) {
    const { storeId, objectType } = scope;
    const states = await this.repositories.objectStates.findMany(scope, [externalObjectId]);
    if (states.size === 0) {
      throw AppError.notFound(
        `No ${objectType} "${externalObjectId}" has been received in store "${storeId}" (messages are processed asynchronously; try again shortly)`,
      );
    }
  }
}
