import type { ErrorStatus, ErrorType, ObjectType } from './enums';

/** SPEC.md "Sync error record", v1 names. */
export interface V1SyncErrorRecord {
  portalId: number;
  objectType: ObjectType;
  integratorObjectId: string;
  changeOccurredTimestamp: number;
  errorTimestamp: number;
  type: ErrorType;
  details: string;
  status: ErrorStatus;
}

/** SPEC.md "Sync error record", v2 names. */
export interface V2SyncErrorRecord {
  portalId: number;
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
  changedAt: number;
  erroredAt: number;
  type: ErrorType;
  details: string;
  status: ErrorStatus;
}

/** SPEC.md "Sync status record (v2)". */
export interface V2SyncStatus {
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
  crmId: number | null;
  lastProcessedAt: number | null;
  errors: V2SyncErrorRecord[];
}

/** vendor-api-notes.md, GET /v1/sync-status. */
export interface V1SyncStatus {
  objectType: ObjectType;
  externalObjectId: string;
  lastProcessedAt: number | null;
  numErrors: number;
  crmId?: number;
}
