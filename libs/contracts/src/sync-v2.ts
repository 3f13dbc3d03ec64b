import type { FromWireSchema } from './validation';
import { ACTIONS, OBJECT_TYPES } from './enums';
import { changeTimeSchema } from './change-time';
import { MAX_SYNC_MESSAGES, objectIdSchema, objectTypeSchema, optionalPropertyMapSchema } from './common-schemas';

const externalIdsSchema = { type: 'array', maxItems: 1000, items: objectIdSchema } as const;

/** Associated object type to the external ids of the associated objects. */
export const v2AssociationsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { CONTACT: externalIdsSchema, DEAL: externalIdsSchema, PRODUCT: externalIdsSchema, LINE_ITEM: externalIdsSchema },
  errorHint: `keys must be object types (${OBJECT_TYPES.join(', ')}) and values arrays of external ids`,
} as const;
export type V2Associations = FromWireSchema<typeof v2AssociationsSchema>;

const optionalExternalIdsSchema = { ...externalIdsSchema, type: ['array', 'null'] } as const;

/** A sender's associations, where null (the whole map, or one type's ids) is taken as left out (decision 0060). */
export const optionalAssociationsSchema = {
  ...v2AssociationsSchema,
  type: ['object', 'null'],
  properties: { CONTACT: optionalExternalIdsSchema, DEAL: optionalExternalIdsSchema, PRODUCT: optionalExternalIdsSchema, LINE_ITEM: optionalExternalIdsSchema },
  errorHint: `keys must be object types (${OBJECT_TYPES.join(', ')}) and values arrays of external ids (or null, the same as leaving it out)`,
} as const;

/** SPEC.md "Sync submission (v2)", one message. `changedAt`: see changeTimeSchema. */
export const v2SyncMessageSchema = {
  type: 'object',
  required: ['externalObjectId', 'action'],
  additionalProperties: false,
  properties: {
    externalObjectId: objectIdSchema,
    action: { type: 'string', enum: ACTIONS, errorHint: `must be one of ${ACTIONS.join(', ')}` },
    changedAt: changeTimeSchema,
    properties: optionalPropertyMapSchema,
    associations: optionalAssociationsSchema,
  },
} as const;
export type V2SyncMessage = FromWireSchema<typeof v2SyncMessageSchema>;

/** PUT /extensions/ecomm/v2/sync/messages. */
export const v2SyncSubmissionSchema = {
  $id: 'v2-sync-submission',
  type: 'object',
  required: ['storeId', 'objectType', 'messages'],
  additionalProperties: false,
  properties: {
    storeId: { ...objectIdSchema, errorHint: 'must be the id of a store, 1 to 100 ASCII characters' },
    objectType: objectTypeSchema,
    // SPEC.md: "up to 200 messages" (v1 says 1 to 200): none is accepted, and nothing enqueued.
    messages: {
      type: 'array',
      maxItems: MAX_SYNC_MESSAGES,
      items: v2SyncMessageSchema,
      errorHint: `must hold at most ${MAX_SYNC_MESSAGES} messages`,
    },
  },
} as const;
export type V2SyncSubmission = FromWireSchema<typeof v2SyncSubmissionSchema>;

const adminUriSchema = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 } as const;

/** A v2 store (SPEC.md "Store (v2)"): an organising label of the data a tenant sends. */
export const v2StoreSchema = {
  $id: 'v2-store',
  type: 'object',
  required: ['id', 'label'],
  additionalProperties: false,
  properties: {
    id: objectIdSchema,
    label: { type: 'string', minLength: 1, maxLength: 200 },
    adminUri: { ...adminUriSchema, errorHint: 'must be an absolute http(s) URI' },
  },
} as const;
export type V2Store = FromWireSchema<typeof v2StoreSchema>;

/** What PUT /v2/stores takes: the store, its optional `adminUri` also as null, the same as leaving it out (decision 60). */
export const v2StoreInputSchema = {
  ...v2StoreSchema,
  $id: 'v2-store-input',
  properties: {
    ...v2StoreSchema.properties,
    adminUri: {
      anyOf: [adminUriSchema, { type: 'null' }],
      errorHint: 'must be an absolute http(s) URI (or null, the same as leaving it out)',
    },
  },
} as const;

/** The store a PUT sent, an `adminUri` sent as null left out. */
export function sentStore({ adminUri, ...store }: FromWireSchema<typeof v2StoreInputSchema>): V2Store {
  return adminUri === null || adminUri === undefined ? store : { ...store, adminUri };
}

/**
 * A sender's associations as the service keeps them: a type whose ids were sent as null is left
 * out; none left, or none sent, is undefined (decision 0060).
 */
export function sentAssociations(associations: V2SyncMessage['associations']): V2Associations | undefined {
  if (!associations) return undefined;
  const kept = Object.fromEntries(Object.entries(associations).filter(([, ids]) => ids !== null && ids !== undefined));
  return Object.keys(kept).length > 0 ? (kept as V2Associations) : undefined;
}
