import type { FromWireSchema } from './validation';
import type { ObjectType } from './enums';
import { MAX_IMPORT_MESSAGES, epochMillisSchema, objectIdSchema, objectTypeSchema, optionalPropertyMapSchema } from './common-schemas';
import { optionalAssociationsSchema } from './sync-v2';

/** SPEC.md "Import message (v1)": a v1 sync message without action and timestamp; always an upsert. */
const v1ImportMessageSchema = {
  type: 'object',
  required: ['integratorObjectId'],
  additionalProperties: false,
  properties: { integratorObjectId: objectIdSchema, propertyNameToValues: optionalPropertyMapSchema },
} as const;
export type V1ImportMessage = FromWireSchema<typeof v1ImportMessageSchema>;

/**
 * SPEC.md: "array of import messages, up to 500". An empty page is a page of no items: it is counted
 * in the end's `pageCount` and releases nothing (a sender that pages by a query may end on one).
 */
export const v1ImportPageSchema = {
  $id: 'v1-import-page',
  type: 'array',
  maxItems: MAX_IMPORT_MESSAGES,
  errorHint: `must hold at most ${MAX_IMPORT_MESSAGES} import messages`,
  items: v1ImportMessageSchema,
} as const;

const countSchema = { type: 'integer', minimum: 0, maximum: 100_000_000 } as const;

export const v1ImportEndSchema = {
  $id: 'v1-import-end',
  type: 'object',
  required: ['pageCount', 'itemCount'],
  additionalProperties: false,
  properties: { pageCount: countSchema, itemCount: countSchema },
} as const;
export type ImportEnd = FromWireSchema<typeof v1ImportEndSchema>;

/** POST /extensions/ecomm/v2/imports/page (vendor-api-notes.md). */
export const v2ImportPageSchema = {
  $id: 'v2-import-page',
  type: 'object',
  required: ['importStartedAt', 'pageNumber', 'storeId', 'objectType', 'messages'],
  additionalProperties: false,
  properties: {
    importStartedAt: epochMillisSchema,
    pageNumber: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    storeId: objectIdSchema,
    objectType: objectTypeSchema,
    messages: {
      type: 'array',
      // SPEC.md "Limits": 500 import messages per request for import pages, v2's too (the vendor's
      // notes say 200 for v2; where they disagree, SPEC.md wins). "Up to": an empty page is taken, as in v1.
      maxItems: MAX_IMPORT_MESSAGES,
      errorHint: `must hold at most ${MAX_IMPORT_MESSAGES} messages`,
      items: {
        type: 'object',
        required: ['externalObjectId'],
        additionalProperties: false,
        properties: { externalObjectId: objectIdSchema, properties: optionalPropertyMapSchema, associations: optionalAssociationsSchema },
      },
    },
  },
} as const;
export type V2ImportPage = FromWireSchema<typeof v2ImportPageSchema>;

/** POST /extensions/ecomm/v2/imports/end. */
export const v2ImportEndSchema = {
  $id: 'v2-import-end',
  type: 'object',
  required: ['importStartedAt', 'storeId', 'objectType', 'pageCount', 'itemCount'],
  additionalProperties: false,
  properties: { importStartedAt: epochMillisSchema, storeId: objectIdSchema, objectType: objectTypeSchema, pageCount: countSchema, itemCount: countSchema },
} as const;
export type V2ImportEnd = FromWireSchema<typeof v2ImportEndSchema>;

/** POST /extensions/ecomm/v2/imports: which store to import into. */
export const v2ImportStartSchema = {
  $id: 'v2-import-start',
  type: 'object',
  required: ['storeId'],
  additionalProperties: false,
  properties: { storeId: objectIdSchema },
} as const;

/** The webhook body (SPEC.md "Events"); a v2 import's also names its store (v1 has none). */
export const importInitializationSchema = {
  $id: 'import-initialization',
  type: 'object',
  required: ['portalId', 'importStartedAt', 'settingsToImport'],
  additionalProperties: false,
  properties: {
    portalId: { type: 'integer' },
    storeId: objectIdSchema,
    importStartedAt: epochMillisSchema,
    settingsToImport: {
      type: 'array',
      items: {
        type: 'object',
        required: ['settingsId', 'objectType'],
        additionalProperties: false,
        properties: { settingsId: { type: 'integer' }, objectType: objectTypeSchema },
      },
    },
  },
} as const;
export type ImportInitialization = FromWireSchema<typeof importInitializationSchema>;

/** The receiver's answer: one count per `settingsToImport` entry. */
export const importInitializationResponseSchema = {
  $id: 'import-initialization-response',
  type: 'object',
  required: ['importCounts'],
  properties: {
    importCounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['settingsId'],
        // `count` is an estimate for progress (SPEC.md): any value or none is taken; the import machine keeps a
        // whole non-negative number (also one sent as decimal text) and reads anything else as "cannot be
        // estimated" (null), never failing the import for it.
        properties: { settingsId: { type: 'integer' }, count: {} },
      },
    },
  },
} as const;
export type ImportInitializationResponse = FromWireSchema<typeof importInitializationResponseSchema>;

/** settingsId of each object type's settings in an application's import (stable numbers). */
export const IMPORT_SETTINGS_IDS: Record<ObjectType, number> = { CONTACT: 1, DEAL: 2, PRODUCT: 3, LINE_ITEM: 4 };

const importIdSchema = { type: 'string', pattern: '^[0-9a-f]{24}$' } as const;
const requestIdSchema = { type: 'string', minLength: 1 } as const;

/** gateway → import-coordinator, and webhook-dispatcher → import-coordinator. */
export const importEventMessageSchema = {
  $id: 'amqp-import-event',
  oneOf: [
    {
      type: 'object',
      required: ['kind', 'importId'],
      properties: { kind: { enum: ['import-started', 'import-completed'] }, importId: importIdSchema },
    },
    {
      type: 'object',
      required: ['kind', 'requestId', 'ok', 'status'],
      // body: the receiver's JSON answer, absent when it sent none.
      properties: { kind: { const: 'webhook-completed' }, requestId: requestIdSchema, ok: { const: true }, status: { type: 'integer' }, body: {} },
    },
    {
      type: 'object',
      required: ['kind', 'requestId', 'ok', 'reason'],
      properties: { kind: { const: 'webhook-completed' }, requestId: requestIdSchema, ok: { const: false }, reason: { type: 'string' } },
    },
  ],
} as const;
export type ImportEventMessage = FromWireSchema<typeof importEventMessageSchema>;

/**
 * import-coordinator → webhook-dispatcher: POST `body` to `url`, signed with the application's
 * secret; `body` is the exact JSON text to send (what is signed).
 */
export const webhookRequestMessageSchema = {
  $id: 'amqp-webhook-request',
  type: 'object',
  required: ['requestId', 'appId', 'url', 'body'],
  properties: { requestId: requestIdSchema, appId: { type: 'string', minLength: 1 }, url: { type: 'string', minLength: 1 }, body: { type: 'string' } },
} as const;
export type WebhookRequestMessage = FromWireSchema<typeof webhookRequestMessageSchema>;
