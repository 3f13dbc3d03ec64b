import type { Action, ObjectType } from './enums';
import { ACTIONS, OBJECT_TYPES } from './enums';
import { changeTimeSchema } from './change-time';
import type { PropertyValue } from './sync-v1';
import { MAX_SYNC_MESSAGES, objectIdSchema, objectTypeSchema, propertyMapSchema } from './common-schemas';

export type V2Associations = Partial<Record<ObjectType, string[]>>;

/** SPEC.md "Sync submission (v2)", one message. */
export interface V2SyncMessage {
  externalObjectId: string;
  action: Action;
  /** Epoch ms; examples also send it as a numeric string. */
  changedAt?: number | string;
  properties?: Record<string, PropertyValue>;
  associations?: V2Associations;
}

export interface V2SyncSubmission {
  storeId: string;
  objectType: ObjectType;
  messages: V2SyncMessage[];
}

export const v2AssociationsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(OBJECT_TYPES.map((type) => [type, { type: 'array', maxItems: 1000, items: objectIdSchema }])),
  errorHint: `keys must be object types (${OBJECT_TYPES.join(', ')}) and values arrays of external ids`,
} as const;

export const v2SyncMessageSchema = {
  type: 'object',
  required: ['externalObjectId', 'action'],
  additionalProperties: false,
  properties: {
    externalObjectId: objectIdSchema,
    action: { type: 'string', enum: ACTIONS },
    changedAt: changeTimeSchema,
    properties: propertyMapSchema,
    associations: v2AssociationsSchema,
  },
} as const;

/** PUT /extensions/ecomm/v2/sync/messages. */
export const v2SyncSubmissionSchema = {
  $id: 'v2-sync-submission',
  type: 'object',
  required: ['storeId', 'objectType', 'messages'],
  additionalProperties: false,
  properties: {
    storeId: { ...objectIdSchema, errorHint: 'must be the id of a store, 1 to 100 ASCII characters' },
    objectType: objectTypeSchema,
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SYNC_MESSAGES,
      items: v2SyncMessageSchema,
      errorHint: `must hold 1 to ${MAX_SYNC_MESSAGES} messages`,
    },
  },
} as const;

/** A v2 store (SPEC.md "Store (v2)"): an organising label of the data a tenant sends. */
export interface V2Store {
  id: string;
  label: string;
  adminUri?: string;
}

export const v2StoreSchema = {
  $id: 'v2-store',
  type: 'object',
  required: ['id', 'label'],
  additionalProperties: false,
  properties: {
    id: objectIdSchema,
    label: { type: 'string', minLength: 1, maxLength: 200 },
    adminUri: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000, errorHint: 'must be an absolute http(s) URI' },
  },
} as const;
