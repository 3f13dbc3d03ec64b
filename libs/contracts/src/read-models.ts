import type { FromWireSchema } from './validation';
import { ERROR_STATUSES, ERROR_TYPES, OBJECT_TYPES } from './enums';

const objectType = { type: 'string', enum: OBJECT_TYPES } as const;
const errorType = { type: 'string', enum: ERROR_TYPES } as const;
const errorStatus = { type: 'string', enum: ERROR_STATUSES } as const;
const epochMillis = { type: 'integer' } as const;

/** SPEC.md "Sync error record", v1 names. */
export const v1SyncErrorRecordSchema = {
  $id: 'v1-sync-error-record',
  type: 'object',
  additionalProperties: false,
  required: ['portalId', 'objectType', 'integratorObjectId', 'changeOccurredTimestamp', 'errorTimestamp', 'type', 'details', 'status'],
  properties: {
    portalId: { type: 'integer' },
    objectType,
    integratorObjectId: { type: 'string' },
    changeOccurredTimestamp: epochMillis,
    errorTimestamp: epochMillis,
    type: errorType,
    details: { type: 'string' },
    status: errorStatus,
  },
} as const;
export type V1SyncErrorRecord = FromWireSchema<typeof v1SyncErrorRecordSchema>;

/** SPEC.md "Sync error record", v2 names. */
export const v2SyncErrorRecordSchema = {
  $id: 'v2-sync-error-record',
  type: 'object',
  additionalProperties: false,
  required: ['portalId', 'storeId', 'objectType', 'externalObjectId', 'changedAt', 'erroredAt', 'type', 'details', 'status'],
  properties: {
    portalId: { type: 'integer' },
    storeId: { type: 'string' },
    objectType,
    externalObjectId: { type: 'string' },
    changedAt: epochMillis,
    erroredAt: epochMillis,
    type: errorType,
    details: { type: 'string' },
    status: errorStatus,
  },
} as const;
export type V2SyncErrorRecord = FromWireSchema<typeof v2SyncErrorRecordSchema>;

/** SPEC.md "Sync status record (v2)". */
export const v2SyncStatusSchema = {
  $id: 'v2-sync-status',
  type: 'object',
  additionalProperties: false,
  required: ['storeId', 'objectType', 'externalObjectId', 'crmId', 'lastProcessedAt', 'errors'],
  properties: {
    storeId: { type: 'string' },
    objectType,
    externalObjectId: { type: 'string' },
    crmId: { type: ['integer', 'null'] },
    lastProcessedAt: { type: ['integer', 'null'] },
    errors: { type: 'array', items: v2SyncErrorRecordSchema },
  },
} as const;
export type V2SyncStatus = FromWireSchema<typeof v2SyncStatusSchema>;

/** vendor-api-notes.md, GET /v1/sync-status; `crmId` is null while there is no CRM object, as in SPEC's status object and v2 (clients read it as null). */
export const v1SyncStatusSchema = {
  $id: 'v1-sync-status',
  type: 'object',
  additionalProperties: false,
  required: ['objectType', 'externalObjectId', 'lastProcessedAt', 'numErrors', 'crmId'],
  properties: {
    objectType,
    externalObjectId: { type: 'string' },
    lastProcessedAt: { type: ['integer', 'null'] },
    numErrors: { type: 'integer' },
    crmId: { type: ['integer', 'null'] },
  },
} as const;
export type V1SyncStatus = FromWireSchema<typeof v1SyncStatusSchema>;

/** Listings of v1 error records (`limit` and `offset`). */
export const v1SyncErrorListSchema = {
  $id: 'v1-sync-error-list',
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: { results: { type: 'array', items: v1SyncErrorRecordSchema } },
} as const;

/** Listings of v2 error records; `paging` only when more exist. */
export const v2SyncErrorListSchema = {
  $id: 'v2-sync-error-list',
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: {
    results: { type: 'array', items: v2SyncErrorRecordSchema },
    paging: {
      type: 'object',
      required: ['next'],
      properties: { next: { type: 'object', required: ['page', 'link'], properties: { page: { type: 'string' }, link: { type: 'string' } } } },
    },
  },
} as const;
