import { createValidator, type FromWireSchema } from './validation';
import { ACTIONS, ERROR_TYPES, OBJECT_TYPES } from './enums';
import { acceptedPropertyMapSchema, objectIdSchema } from './common-schemas';
import { v2AssociationsSchema } from './sync-v2';

/** Who the data belongs to: a portal, and the application in application mode (null in direct mode). */
const tenantSchema = {
  type: 'object',
  required: ['portalId', 'appId'],
  properties: {
    portalId: { type: 'integer', minimum: 1 },
    appId: { type: ['string', 'null'] },
  },
} as const;
export type Tenant = FromWireSchema<typeof tenantSchema>;

const messageSourceSchema = { type: 'string', enum: ['v1', 'v2', 'import'] } as const;
export type MessageSource = FromWireSchema<typeof messageSourceSchema>;

/** One change as received, in the sender's property names; `changedAt` null: the sender left it out (the receipt time applies then). */
const inboundMessageSchema = {
  type: 'object',
  required: ['externalObjectId', 'action', 'changedAt', 'properties'],
  properties: {
    externalObjectId: objectIdSchema,
    action: { type: 'string', enum: ACTIONS },
    changedAt: { type: ['integer', 'null'] },
    properties: acceptedPropertyMapSchema,
    associations: v2AssociationsSchema,
  },
} as const;
export type InboundMessage = FromWireSchema<typeof inboundMessageSchema>;

/** gateway → mapper: one accepted request, whole. Routing key `sync.batch.<objectType>`. */
export const syncBatchMessageSchema = {
  $id: 'amqp-sync-batch',
  type: 'object',
  required: ['batchId', 'tenant', 'storeId', 'objectType', 'source', 'receivedAt', 'messages'],
  properties: {
    batchId: { type: 'string', minLength: 1 },
    tenant: tenantSchema,
    storeId: objectIdSchema,
    objectType: { type: 'string', enum: OBJECT_TYPES },
    source: messageSourceSchema,
    receivedAt: { type: 'integer' },
    messages: { type: 'array', minItems: 1, items: inboundMessageSchema },
  },
} as const;
export type SyncBatchMessage = FromWireSchema<typeof syncBatchMessageSchema>;

/** A blocking problem stops the object from being applied; others skip one property. */
/** The CRM's own words for a refusal: its HTTP status, `category` and `correlationId` (what its support asks for). */
const crmAnswerSchema = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    category: { type: 'string' },
    correlationId: { type: 'string' },
  },
} as const;
export type CrmAnswer = FromWireSchema<typeof crmAnswerSchema>;

const problemSchema = {
  type: 'object',
  required: ['type', 'details', 'blocking'],
  properties: {
    type: { type: 'string', enum: ERROR_TYPES },
    details: { type: 'string' },
    blocking: { type: 'boolean' },
    /** When the CRM refused the write: what it answered. */
    crm: crmAnswerSchema,
  },
} as const;
export type Problem = FromWireSchema<typeof problemSchema>;

/**
 * An object's whole mapped state at one revision, in CRM property names. `rev` grows each time
 * the object's stored state or its mapping changes (the applier skips older ones); `changedAt` is
 * the newest of its state; `settingsRev` the settings' revision it was mapped with (a re-map
 * after a settings change is newer); `generation` counts deletes, so that an upsert after a
 * delete makes a new CRM object.
 */
const mappedChangeSchema = {
  type: 'object',
  required: ['externalObjectId', 'rev', 'settingsRev', 'action', 'changedAt', 'generation', 'properties', 'associations', 'problems'],
  properties: {
    externalObjectId: objectIdSchema,
    rev: { type: 'integer', minimum: 0 },
    settingsRev: { type: 'integer', minimum: 0 },
    action: { type: 'string', enum: ACTIONS },
    changedAt: { type: 'integer' },
    generation: { type: 'integer', minimum: 0 },
    properties: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
    associations: v2AssociationsSchema,
    problems: { type: 'array', items: problemSchema },
  },
} as const;
export type MappedChange = FromWireSchema<typeof mappedChangeSchema>;

/**
 * mapper → applier. Routing key `changes.mapped.<objectType>`. `reapply`: write the changes even
 * where the same revision was applied already (the answer to a refresh).
 */
export const mappedChangesMessageSchema = {
  $id: 'amqp-mapped-changes',
  type: 'object',
  required: ['tenant', 'storeId', 'objectType', 'changes'],
  properties: {
    tenant: tenantSchema,
    storeId: objectIdSchema,
    objectType: { type: 'string', enum: OBJECT_TYPES },
    reapply: { type: 'boolean' },
    changes: { type: 'array', minItems: 1, items: mappedChangeSchema },
  },
} as const;
export type MappedChangesMessage = FromWireSchema<typeof mappedChangesMessageSchema>;

/** Errors that hold changes back until an account event, rather than until a new message. */
export const CATCH_UP_ERROR_TYPES = ['INACTIVE_PORTAL', 'PORTAL_NOT_SYNC_ENABLED'] as const;

/**
 * gateway → mapper: settings changed; the mapper re-maps the stored state of the objects of these
 * types. Routing key `settings.changed`. `owner`: `app:<appId>` or `portal:<portalId>`.
 */
const settingsChangedSchema = {
  type: 'object',
  required: ['kind', 'owner', 'settingsRev', 'objectTypes'],
  properties: {
    kind: { const: 'settings-changed' },
    owner: { type: 'string', pattern: '^(app|portal):.+$' },
    settingsRev: { type: 'integer', minimum: 1 },
    objectTypes: { type: 'array', items: { type: 'string', enum: OBJECT_TYPES } },
  },
} as const;
export type SettingsChangedMessage = FromWireSchema<typeof settingsChangedSchema>;

/** mapper → mapper: go on with a re-apply job (one chunk of pages per message). Routing key `settings.reapply`. */
const reapplyChunkSchema = {
  type: 'object',
  required: ['kind', 'jobId'],
  properties: { kind: { const: 'reapply-chunk' }, jobId: { type: 'string', minLength: 1 } },
} as const;
export type ReapplyChunkMessage = FromWireSchema<typeof reapplyChunkSchema>;

/**
 * gateway → mapper: what was held back by `errorType` can apply now (the portal was enabled, the
 * tenant installed); the objects with such open errors are mapped and applied, a page per message.
 * Routing key `objects.catch-up`. `appId`: one tenant of the portal (null: direct mode), absent:
 * every tenant of the portal. `afterId`: resume point (an error id) of the next page.
 */
const catchUpSchema = {
  type: 'object',
  required: ['kind', 'portalId', 'errorType'],
  properties: {
    kind: { const: 'catch-up' },
    portalId: { type: 'integer', minimum: 1 },
    appId: { type: ['string', 'null'] },
    errorType: { type: 'string', enum: CATCH_UP_ERROR_TYPES },
    afterId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
  },
} as const;
export type CatchUpMessage = FromWireSchema<typeof catchUpSchema>;

/**
 * applier → mapper: these objects were written to the CRM by two writers at once and the older
 * write may have landed last; map their stored state again and send it to be written even if its
 * revision was applied already. Routing key `objects.refresh`.
 */
const refreshObjectsSchema = {
  type: 'object',
  required: ['kind', 'tenant', 'storeId', 'objectType', 'externalObjectIds'],
  properties: {
    kind: { const: 'refresh-objects' },
    tenant: tenantSchema,
    storeId: objectIdSchema,
    objectType: { type: 'string', enum: OBJECT_TYPES },
    externalObjectIds: { type: 'array', minItems: 1, maxItems: 1000, items: objectIdSchema },
  },
} as const;
export type RefreshObjectsMessage = FromWireSchema<typeof refreshObjectsSchema>;

export const settingsWorkMessageSchema = {
  $id: 'amqp-settings-work',
  oneOf: [settingsChangedSchema, reapplyChunkSchema, catchUpSchema, refreshObjectsSchema],
} as const;
export type SettingsWorkMessage = FromWireSchema<typeof settingsWorkMessageSchema>;

/**
 * gateway → every replica of the gateway and the applier, on `lookups.changed`: drop cached look-ups.
 * `{}`: every one (a credential revoked, a portal disabled, a CRM connection set). `{ tenant }`: only
 * what a tenant's ecommerce install or stores change (its store look-ups, its install), and with
 * `crmSetUp` its portal's too (its CRM client and portal document: the install set the portal's
 * pipelines and properties up), so that a tenant's install calls never empty other tenants' caches.
 * `{ tokensOf }`: an OAuth install's tokens were deleted (beyond its limit, a lost answer's pair):
 * the credentials cached of that install. A replica older than that field reads no tenant in it,
 * and drops everything.
 */
const lookupsChangedSchema = {
  type: 'object',
  properties: { tenant: tenantSchema, crmSetUp: { type: 'boolean' }, tokensOf: tenantSchema },
} as const;
export type LookupsChangedMessage = FromWireSchema<typeof lookupsChangedSchema>;
const validateLookupsChanged = createValidator(lookupsChangedSchema, 'message');

/**
 * What changed: a tenant whose install or stores changed, and whether its portal's CRM was set up
 * (pipelines, properties); or an install whose tokens were deleted.
 */
export type LookupsChange = { tenant: Tenant; crmSetUp: boolean } | { tokensOf: Tenant };

/** What a `lookups.changed` message names: one tenant's change, or null for every look-up (an empty message, or one this version cannot read). */
export function lookupsChangeOf(body: unknown): LookupsChange | null {
  const message = validateLookupsChanged(body);
  if (!message.ok) return null;
  const { tenant, crmSetUp, tokensOf } = message.value;
  if (tenant && !tokensOf) return { tenant, crmSetUp: crmSetUp ?? false };
  if (tokensOf && !tenant) return { tokensOf };
  return null;
}

/**
 * Which lane of a queue a message travels in (docs/decisions/0045-interactive-and-bulk-lanes.md):
 * a portal's steady traffic goes `interactive`; what it sends beyond its share, imports and
 * re-applies go `bulk`, consumed beside it so that no backlog sits in front of another portal's work.
 */
export type Lane = 'interactive' | 'bulk';

/** The topics the services exchange; sync routing keys are `<topic>.<objectType>`. */
export const TOPICS = {
  syncBatch: 'sync.batch',
  mappedChanges: 'changes.mapped',
  settingsChanged: 'settings.changed',
  reapplyChunk: 'settings.reapply',
  catchUp: 'objects.catch-up',
  refreshObjects: 'objects.refresh',
  importStarted: 'imports.started',
  importCompleted: 'imports.completed',
  webhookRequested: 'webhooks.requested',
  webhookCompleted: 'webhooks.completed',
  /** Broadcast to every gateway and applier replica: drop cached look-ups (LookupsChangedMessage). */
  lookupsChanged: 'lookups.changed',
  /** alert-evaluator → its notice sender: one notice to deliver (decision 0053). */
  alertNotice: 'alerts.notice',
} as const;
