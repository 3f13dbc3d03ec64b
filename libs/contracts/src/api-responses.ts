import type { FromWireSchema } from './validation';
import type { ObjectType } from './enums';
import { v2StoreSchema } from './sync-v2';

/** Every failure's body (docs/api.md "Errors"); OAuth failures add RFC 6749's `error` code. */
export const errorBodySchema = {
  type: 'object',
  required: ['status', 'message', 'requestId'],
  properties: {
    status: { const: 'error' },
    message: { type: 'string', description: 'What is wrong and how to fix it' },
    requestId: { type: 'string', pattern: '^[a-z0-9]{32}$', description: 'Also in the X-Request-Id header and in every log line of the request' },
    error: { type: 'string', description: 'POST /oauth/v1/token only: the RFC 6749 error code' },
  },
} as const;
export type ErrorBody = FromWireSchema<typeof errorBodySchema>;

export const installStatusSchema = {
  $id: 'install-status',
  type: 'object',
  additionalProperties: false,
  required: ['installCompleted', 'ecommSettingsEnabled'],
  properties: { installCompleted: { type: 'boolean' }, ecommSettingsEnabled: { type: 'boolean' } },
} as const;
export type InstallStatus = FromWireSchema<typeof installStatusSchema>;

export const storeListSchema = {
  $id: 'store-list',
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: { results: { type: 'array', items: v2StoreSchema } },
} as const;

export const importStartedSchema = {
  $id: 'import-started',
  type: 'object',
  required: ['importStartedAt', 'status'],
  properties: { importStartedAt: { type: 'integer' }, status: { type: 'string' } },
} as const;

const importStatus = { type: 'string', enum: ['initialized', 'receiving', 'complete', 'failed'] } as const;

/** GET .../imports/{importStartedAt}: the import's state, per object type, and its webhook's attempts. */
export const importViewSchema = {
  $id: 'import-view',
  type: 'object',
  required: ['importStartedAt', 'storeId', 'status', 'objectTypes'],
  properties: {
    importStartedAt: { type: 'integer' },
    storeId: { type: 'string' },
    status: importStatus,
    failureReason: { type: ['string', 'null'] },
    completedAt: { type: ['integer', 'null'] },
    releasedAt: { type: ['integer', 'null'] },
    releaseProblem: {
      type: ['object', 'null'],
      description: 'the release to the sync failed and is tried again: the last failure, when, how many tries in a row failed, and since when',
      properties: { reason: { type: 'string' }, at: { type: 'integer' }, tries: { type: 'integer' }, since: { type: 'integer' } },
    },
    objectTypes: { type: 'object', additionalProperties: { type: 'object' } },
    webhook: {
      type: ['object', 'null'],
      properties: {
        uri: { type: 'string' },
        attempts: { type: 'array', items: { type: 'object' } },
        problem: {
          type: ['object', 'null'],
          description: 'the webhook failed for good or answered amiss after pages arrived: the import went on',
          properties: { reason: { type: 'string' }, at: { type: 'integer' } },
        },
      },
    },
  },
} as const;

/** The import's state as GET .../imports/{importStartedAt} answers it (the gateway and the console share it). */
export interface ImportView {
  importStartedAt: number;
  storeId: string;
  status: 'initialized' | 'receiving' | 'complete' | 'failed';
  failureReason: string | null;
  completedAt: number | null;
  releasedAt: number | null;
  /** A complete import whose release failed and is tried again: the last failure, when, the tries in a row and since when; null once a page is released. */
  releaseProblem: { reason: string; at: number; tries: number; since: number } | null;
  objectTypes: Partial<Record<ObjectType, { settingsId: number; expectedCount: number | null; pagesReceived: number; itemsReceived: number; ended: boolean }>>;
  webhook: {
    uri: string;
    attempts: { attempt: number; at: number; status: number | null; error: string | null; durationMs: number }[];
    /** The webhook failed for good or answered amiss after pages arrived: the import went on (estimates unknown). */
    problem: { reason: string; at: number } | null;
  };
}

/** GET /extensions/ecomm/v2/sync/crm-health (decision 23). */
export const crmHealthSchema = {
  $id: 'crm-health',
  type: 'object',
  required: ['portalId', 'state', 'message'],
  properties: {
    portalId: { type: 'integer' },
    state: { type: 'string', enum: ['ok', 'rate-limited', 'daily-cap', 'unreachable', 'unauthorized'] },
    message: { type: 'string' },
    since: { type: ['integer', 'string', 'null'] },
    until: { type: ['integer', 'string', 'null'] },
    lastAnswer: {},
    tries: { type: 'integer' },
    parkedChanges: { type: 'integer' },
  },
} as const;

/** POST /oauth/v1/token, form-encoded (RFC 6749 section 6). */
export const oauthRefreshFormSchema = {
  type: 'object',
  required: ['grant_type', 'client_id', 'client_secret', 'refresh_token'],
  properties: {
    grant_type: { const: 'refresh_token' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    refresh_token: { type: 'string' },
  },
} as const;

export const oauthTokensSchema = {
  $id: 'oauth-tokens',
  type: 'object',
  additionalProperties: false,
  required: ['access_token', 'refresh_token', 'expires_in', 'token_type'],
  properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' }, expires_in: { type: 'integer' }, token_type: { const: 'bearer' } },
} as const;
