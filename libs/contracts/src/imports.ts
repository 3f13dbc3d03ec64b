import type { ObjectType } from './enums';
import { MAX_IMPORT_MESSAGES, MAX_SYNC_MESSAGES, epochMillisSchema, objectIdSchema, objectTypeSchema, propertyMapSchema } from './common-schemas';
import type { PropertyValue } from './sync-v1';
import { v2AssociationsSchema } from './sync-v2';

/** SPEC.md "Import message (v1)": a v1 sync message without action and timestamp; always an upsert. */
export interface V1ImportMessage {
  integratorObjectId: string;
  propertyNameToValues?: Record<string, PropertyValue>;
}

export const v1ImportPageSchema = {
  $id: 'v1-import-page',
  type: 'array',
  minItems: 1,
  maxItems: MAX_IMPORT_MESSAGES,
  errorHint: `must hold 1 to ${MAX_IMPORT_MESSAGES} import messages`,
  items: {
    type: 'object',
    required: ['integratorObjectId'],
    additionalProperties: false,
    properties: { integratorObjectId: objectIdSchema, propertyNameToValues: propertyMapSchema },
  },
} as const;

const countSchema = { type: 'integer', minimum: 0, maximum: 100_000_000 } as const;

export interface ImportEnd {
  pageCount: number;
  itemCount: number;
}

export const v1ImportEndSchema = {
  $id: 'v1-import-end',
  type: 'object',
  required: ['pageCount', 'itemCount'],
  additionalProperties: false,
  properties: { pageCount: countSchema, itemCount: countSchema },
} as const;

/** POST /extensions/ecomm/v2/imports/page (vendor-api-notes.md). */
export interface V2ImportPage {
  importStartedAt: number;
  pageNumber: number;
  storeId: string;
  objectType: ObjectType;
  messages: { externalObjectId: string; properties?: Record<string, PropertyValue>; associations?: Partial<Record<ObjectType, string[]>> }[];
}

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
      minItems: 1,
      maxItems: MAX_SYNC_MESSAGES,
      errorHint: `must hold 1 to ${MAX_SYNC_MESSAGES} messages`,
      items: {
        type: 'object',
        required: ['externalObjectId'],
        additionalProperties: false,
        properties: { externalObjectId: objectIdSchema, properties: propertyMapSchema, associations: v2AssociationsSchema },
      },
    },
  },
} as const;

/** POST /extensions/ecomm/v2/imports/end. */
export interface V2ImportEnd extends ImportEnd {
  importStartedAt: number;
  storeId: string;
  objectType: ObjectType;
}

export const v2ImportEndSchema = {
  $id: 'v2-import-end',
  type: 'object',
  required: ['importStartedAt', 'storeId', 'objectType', 'pageCount', 'itemCount'],
  additionalProperties: false,
  properties: { importStartedAt: epochMillisSchema, storeId: objectIdSchema, objectType: objectTypeSchema, pageCount: countSchema, itemCount: countSchema },
} as const;

/** The webhook body (SPEC.md "Events"). */
export interface ImportInitialization {
  portalId: number;
  importStartedAt: number;
  settingsToImport: { settingsId: number; objectType: ObjectType }[];
}

/** The receiver's answer: one count per `settingsToImport` entry. */
export interface ImportInitializationResponse {
  importCounts: { settingsId: number; count: number | null }[];
}

export const importInitializationResponseSchema = {
  $id: 'import-initialization-response',
  type: 'object',
  required: ['importCounts'],
  properties: {
    importCounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['settingsId', 'count'],
        properties: { settingsId: { type: 'integer' }, count: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] } },
      },
    },
  },
} as const;

/** settingsId of each object type's settings in an application's import (stable numbers). */
export const IMPORT_SETTINGS_IDS: Record<ObjectType, number> = { CONTACT: 1, DEAL: 2, PRODUCT: 3, LINE_ITEM: 4 };

/** gateway → import-coordinator, and webhook-dispatcher → import-coordinator. */
export type ImportEventMessage =
  | { kind: 'import-started'; importId: string }
  | { kind: 'import-completed'; importId: string }
  | { kind: 'webhook-completed'; requestId: string; ok: true; status: number; body: unknown }
  | { kind: 'webhook-completed'; requestId: string; ok: false; reason: string };

export const importEventMessageSchema = {
  $id: 'amqp-import-event',
  type: 'object',
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: ['import-started', 'import-completed', 'webhook-completed'] },
    importId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
    requestId: { type: 'string', minLength: 1 },
    ok: { type: 'boolean' },
  },
} as const;

/** import-coordinator → webhook-dispatcher: POST `body` to `url`, signed with the application's secret. */
export interface WebhookRequestMessage {
  requestId: string;
  appId: string;
  url: string;
  /** The exact JSON text to send (what is signed). */
  body: string;
}

export const webhookRequestMessageSchema = {
  $id: 'amqp-webhook-request',
  type: 'object',
  required: ['requestId', 'appId', 'url', 'body'],
  properties: { requestId: { type: 'string', minLength: 1 }, appId: { type: 'string', minLength: 1 }, url: { type: 'string', minLength: 1 }, body: { type: 'string' } },
} as const;
