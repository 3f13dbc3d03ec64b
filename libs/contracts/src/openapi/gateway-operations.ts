import { crmHealthSchema, importStartedSchema, importViewSchema, installStatusSchema, storeListSchema } from '../api-responses';
import { epochMillisSchema, objectIdSchema, objectTypeSchema } from '../common-schemas';
import { ERROR_TYPES } from '../enums';
import { v1ImportEndSchema, v1ImportPageSchema, v2ImportEndSchema, v2ImportPageSchema, v2ImportStartSchema } from '../imports';
import { v1SyncErrorListSchema, v1SyncStatusSchema, v2SyncErrorListSchema, v2SyncStatusSchema } from '../read-models';
import {
  reapplyStartedSchema,
  reapplyStatusSchema,
  v1ImportSettingsSchema,
  v1ImportSettingsViewSchema,
  v1SettingsSchema,
  v1SettingsViewSchema,
  v2SettingsSchema,
  v2SettingsViewSchema,
} from '../settings';
import { v1SyncMessagesSchema } from '../sync-v1';
import { v2StoreInputSchema, v2StoreSchema, v2SyncSubmissionSchema } from '../sync-v2';
import type { ApiOperation, ApiParameter } from './openapi-builder';
import { CREDENTIALS } from './security';

const ok = (description: string, schema?: object) => ({ 200: { description, ...(schema ? { schema } : {}) } });
const noContent = (description: string) => ({ 204: { description } });

const objectType: ApiParameter = { description: 'CONTACT, DEAL, PRODUCT or LINE_ITEM', schema: objectTypeSchema };
const objectId = (description: string): ApiParameter => ({ description, schema: objectIdSchema });
const importStartedAt: ApiParameter = { description: "The import's importStartedAt (epoch milliseconds)", schema: epochMillisSchema };
const portalId: ApiParameter = { description: 'The portal of the credential', schema: { type: 'integer', minimum: 1 } };
const flag = (description: string): ApiParameter => ({ description: `${description} (default false)`, schema: { type: 'boolean' } });

const filters: Record<string, ApiParameter> = {
  errorType: { description: 'Only errors of this type', schema: { type: 'string', enum: ERROR_TYPES } },
  objectType: { description: 'Only errors of this object type', schema: objectTypeSchema },
  limit: { description: 'Records per page, 1 to 200 (default 200)', schema: { type: 'integer', minimum: 1, maximum: 200 } },
};
const v1Listing = {
  ...filters,
  showResolvedErrors: flag('Include RESOLVED errors'),
  offset: { description: 'Records to skip (default 0)', schema: { type: 'integer', minimum: 0 } },
};
const v2Listing = {
  ...filters,
  includeResolved: flag('Include RESOLVED errors'),
  page: { description: 'A 1-based record offset (default 1); the next page is page + limit', schema: { type: 'integer', minimum: 1 } },
};

/** A sync batch's 429 (decision 57): the credential's rate limit, or the portal's intake pace. */
const pacedIntake = {
  429: "Too many requests with this credential, or a batch beyond what the portal's intake pace (shared with its imports' release) takes within INTAKE_MAX_WAIT_MS, or while the gateway holds as many waiting batches as it may: nothing of it was accepted; Retry-After says when to send it again",
};

// The operations are a table: one per line (not reflowed by Prettier).
// prettier-ignore
const syncAndInstall: ApiOperation[] = [
  {
    method: 'put', path: '/extensions/ecomm/v1/sync-messages/{objectType}', tag: 'Sync', summary: 'Submit 1 to 200 v1 sync messages of one object type',
    security: CREDENTIALS.customerData, pathParams: { objectType }, body: { schema: v1SyncMessagesSchema },
    responses: noContent('Accepted: the batch is durably queued; processing is asynchronous'), errors: [403, 413, 415, 503], errorMeanings: pacedIntake,
  },
  {
    method: 'put', path: '/extensions/ecomm/v2/sync/messages', tag: 'Sync', summary: 'Submit up to 200 v2 sync messages of one store and object type',
    security: CREDENTIALS.customerData, body: { schema: v2SyncSubmissionSchema },
    responses: noContent('Accepted: the batch is durably queued (none is queued for no messages); processing is asynchronous'), errors: [403, 413, 415, 503], errorMeanings: pacedIntake,
  },
  { method: 'post', path: '/extensions/ecomm/v1/installs', tag: 'Install and stores', summary: 'Install the ecommerce properties, pipeline and workflows', security: CREDENTIALS.customerData, responses: noContent('Installed (idempotent)'), errors: [403, 409, 502] },
  { method: 'get', path: '/extensions/ecomm/v1/installs/status', tag: 'Install and stores', summary: 'Install and settings status', security: CREDENTIALS.customerData, responses: ok('The status', installStatusSchema), errors: [403] },
  { method: 'post', path: '/extensions/ecomm/v1/installs/uninstall', tag: 'Install and stores', summary: "Uninstall: syncing and workflows off, the tenant's stores deleted", security: CREDENTIALS.customerData, responses: noContent('Uninstalled'), errors: [403] },
  { method: 'put', path: '/extensions/ecomm/v2/stores', tag: 'Install and stores', summary: 'Create or update a store (the first one installs)', security: CREDENTIALS.customerData, body: { schema: v2StoreInputSchema }, responses: ok('The store', v2StoreSchema), errors: [403, 409, 502] },
  { method: 'get', path: '/extensions/ecomm/v2/stores', tag: 'Install and stores', summary: "The tenant's stores", security: CREDENTIALS.customerData, responses: ok('The stores', storeListSchema), errors: [403] },
  { method: 'get', path: '/extensions/ecomm/v2/stores/{storeId}', tag: 'Install and stores', summary: 'One store', security: CREDENTIALS.customerData, pathParams: { storeId: objectId('The store id') }, responses: ok('The store', v2StoreSchema), errors: [400, 403, 404] },
  { method: 'delete', path: '/extensions/ecomm/v2/stores/{storeId}', tag: 'Install and stores', summary: 'Delete a store', security: CREDENTIALS.customerData, pathParams: { storeId: objectId('The store id') }, responses: noContent('Deleted'), errors: [400, 403, 404] },
];

const v1PageParams = {
  importStartedAt,
  objectType,
  pageNumber: { description: 'The page number, unique within the import', schema: { type: 'integer', minimum: 0 } },
};
const importPages = (prefix: string, note: string): ApiOperation[] => [
  {
    method: 'put',
    path: `${prefix}/{importStartedAt}/{objectType}/end`,
    tag: 'Imports',
    summary: `End one object type of a v1 import${note}`,
    security: CREDENTIALS.installedApplication,
    pathParams: { importStartedAt, objectType },
    body: { schema: v1ImportEndSchema },
    responses: noContent('Ended: the counts match what was received'),
    // 503: other requests changed the import each time this one tried (decision 49); send it again.
    errors: [403, 404, 409, 503],
  },
  {
    method: 'put',
    path: `${prefix}/{importStartedAt}/{objectType}/{pageNumber}`,
    tag: 'Imports',
    summary: `Send (or replace) a page of up to 500 v1 import messages${note}`,
    security: CREDENTIALS.installedApplication,
    pathParams: v1PageParams,
    body: { schema: v1ImportPageSchema },
    responses: ok('The page as stored', v1ImportPageSchema),
    errors: [403, 404, 409, 503],
  },
  {
    method: 'get',
    path: `${prefix}/{importStartedAt}/{objectType}/{pageNumber}`,
    tag: 'Imports',
    summary: `Read a page of a v1 import${note}`,
    security: CREDENTIALS.installedApplication,
    pathParams: v1PageParams,
    responses: ok('The page', v1ImportPageSchema),
    errors: [400, 403, 404],
  },
];

// prettier-ignore
const imports: ApiOperation[] = [
  { method: 'post', path: '/extensions/ecomm/v1/imports', tag: 'Imports', summary: 'Start a v1 import (the webhook goes out asynchronously)', security: CREDENTIALS.importingApplication, responses: { 201: { description: 'Started', schema: importStartedSchema } }, errors: [400, 403, 404, 409] },
  { method: 'get', path: '/extensions/ecomm/v1/imports/{importStartedAt}', tag: 'Imports', summary: "A v1 import's state", security: CREDENTIALS.importingApplication, pathParams: { importStartedAt }, responses: ok('The import', importViewSchema), errors: [400, 403, 404] },
  { method: 'post', path: '/extensions/ecomm/v2/imports', tag: 'Imports', summary: 'Start a v2 import of one store', security: CREDENTIALS.importingApplication, body: { schema: v2ImportStartSchema }, responses: { 201: { description: 'Started', schema: importStartedSchema } }, errors: [403, 404, 409] },
  {
    method: 'get', path: '/extensions/ecomm/v2/imports/{importStartedAt}', tag: 'Imports', summary: "A v2 import's state", security: CREDENTIALS.importingApplication,
    pathParams: { importStartedAt }, query: { storeId: { description: 'The store of the import', schema: objectIdSchema, required: true } }, responses: ok('The import', importViewSchema), errors: [400, 403, 404],
  },
  ...importPages('/extensions/ecomm/v1/import-pages', ''),
  ...importPages('/import-pages', ' (the same without the /extensions/ecomm/v1 prefix, for old clients)'),
  { method: 'post', path: '/extensions/ecomm/v2/imports/page', tag: 'Imports', summary: 'Send (or replace) a page of a v2 import', security: CREDENTIALS.installedApplication, body: { schema: v2ImportPageSchema }, responses: noContent('Stored'), errors: [403, 404, 409, 503] },
  { method: 'post', path: '/extensions/ecomm/v2/imports/end', tag: 'Imports', summary: 'End one object type of a v2 import', security: CREDENTIALS.installedApplication, body: { schema: v2ImportEndSchema }, responses: noContent('Ended'), errors: [403, 404, 409, 503] },
];

const settingsOf = (version: 'v1' | 'v2'): ApiOperation[] => {
  const path = `/extensions/ecomm/${version}/settings`;
  const show: Record<string, ApiParameter> =
    version === 'v1'
      ? { showProvidedProperties: flag('Also list the mappings the service provides') }
      : { showProvidedMappings: flag('Also list the mappings the service provides') };
  const [input, view] = version === 'v1' ? [v1SettingsSchema, v1SettingsViewSchema] : [v2SettingsSchema, v2SettingsViewSchema];
  const security = CREDENTIALS.settingsOwner;
  return [
    {
      method: 'get',
      path,
      tag: 'Settings',
      summary: `The ${version} settings (disabled and empty before any PUT${version === 'v2' ? '; webhookUri the import address if one is kept' : ''})`,
      security,
      query: show,
      responses: ok('The settings', view),
      errors: [400, 403, 404],
    },
    {
      method: 'put',
      path,
      tag: 'Settings',
      summary: `Replace the ${version} settings (a full replace)`,
      security,
      query: show,
      body: { schema: input },
      responses: ok('The settings as stored', view),
      errors: [403, 404],
    },
    {
      method: 'delete',
      path,
      tag: 'Settings',
      summary: `Delete the settings (cannot be undone; ${version === 'v1' ? 'the import address of /v1/import-settings stays' : 'webhookUri goes too'})`,
      security,
      responses: noContent('Deleted'),
      errors: [400, 403, 404],
    },
    {
      method: 'get',
      path: `${path}/reapply-status`,
      tag: 'Settings',
      summary: 'The newest re-apply job after a settings change',
      security,
      responses: ok('The job', reapplyStatusSchema),
      errors: [400, 403, 404],
    },
    {
      method: 'post',
      path: `${path}/reapply`,
      tag: 'Settings',
      summary: 'Re-map and apply every stored object with the settings as they are',
      security,
      responses: { 202: { description: 'Started', schema: reapplyStartedSchema } },
      errors: [400, 403, 404, 409],
    },
  ];
};

// prettier-ignore
const settings: ApiOperation[] = [
  ...settingsOf('v1'),
  ...settingsOf('v2'),
  { method: 'get', path: '/extensions/ecomm/v1/import-settings', tag: 'Settings', summary: 'The import trigger URI', security: CREDENTIALS.settingsOwner, responses: ok('The import settings', v1ImportSettingsViewSchema), errors: [400, 403, 404] },
  { method: 'put', path: '/extensions/ecomm/v1/import-settings', tag: 'Settings', summary: 'Set the import trigger URI (v2 calls it webhookUri)', security: CREDENTIALS.settingsOwner, body: { schema: v1ImportSettingsSchema }, responses: ok('The import settings', v1ImportSettingsViewSchema), errors: [403, 404] },
];

const v1Errors = (description: string) => ok(description, v1SyncErrorListSchema);
const v2Errors = (description: string) => ok(description, v2SyncErrorListSchema);

// prettier-ignore
const status: ApiOperation[] = [
  {
    method: 'get', path: '/extensions/ecomm/v1/sync-status/{objectType}/{integratorObjectId}', tag: 'Status and errors', summary: "One object's sync status (v1, store default)",
    security: CREDENTIALS.customerData, pathParams: { objectType, integratorObjectId: objectId('The sender’s object id') }, responses: ok('The status', v1SyncStatusSchema), errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/extensions/ecomm/v2/sync/status/{storeId}/{objectType}/{externalObjectId}', tag: 'Status and errors', summary: "One object's sync status and open errors",
    security: CREDENTIALS.customerData, pathParams: { storeId: objectId('The store id'), objectType, externalObjectId: objectId('The sender’s object id') }, responses: ok('The status', v2SyncStatusSchema), errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/extensions/ecomm/v1/sync-errors/object/{objectType}/{integratorObjectId}', tag: 'Status and errors', summary: "One object's errors (store default)",
    security: CREDENTIALS.customerData, pathParams: { objectType, integratorObjectId: objectId('The sender’s object id') }, query: { showResolvedErrors: flag('Include RESOLVED errors'), limit: filters.limit, offset: v1Listing.offset }, responses: v1Errors('The errors'), errors: [400, 403],
  },
  { method: 'get', path: '/extensions/ecomm/v1/sync-errors', tag: 'Status and errors', summary: 'Errors of the credential’s scope, newest first', security: CREDENTIALS.v1ErrorScope, query: v1Listing, responses: v1Errors('The errors'), errors: [400, 403, 404] },
  { method: 'get', path: '/extensions/ecomm/v1/sync-errors/portal/{portalId}', tag: 'Status and errors', summary: 'Every error in the portal (v1 paging)', security: CREDENTIALS.portalAccount, pathParams: { portalId }, query: v1Listing, responses: v1Errors('The errors'), errors: [400, 403] },
  { method: 'get', path: '/extensions/ecomm/v2/sync/crm-health', tag: 'Status and errors', summary: "Whether the portal's CRM takes changes now", security: CREDENTIALS.customerData, responses: ok('The CRM health', crmHealthSchema), errors: [403] },
  { method: 'get', path: '/extensions/ecomm/v2/sync/errors/portal', tag: 'Status and errors', summary: 'Every error in the portal of the key', security: CREDENTIALS.portalAccount, query: v2Listing, responses: v2Errors('The errors'), errors: [400, 403] },
  { method: 'get', path: '/extensions/ecomm/v2/sync/errors/portal/{portalId}', tag: 'Status and errors', summary: 'Every error in the portal', security: CREDENTIALS.portalAccount, pathParams: { portalId }, query: v2Listing, responses: v2Errors('The errors'), errors: [400, 403] },
  { method: 'get', path: '/extensions/ecomm/v2/sync/errors', tag: 'Status and errors', summary: "The application's errors in the token's portal", security: CREDENTIALS.installedApplication, query: v2Listing, responses: v2Errors('The errors'), errors: [400, 403] },
  { method: 'get', path: '/extensions/ecomm/v1/sync-errors/app/{appId}', tag: 'Status and errors', summary: "An application's errors in every portal (v1 paging)", security: CREDENTIALS.developerApplication, query: v1Listing, responses: v1Errors('The errors'), errors: [400, 403, 404] },
  { method: 'get', path: '/extensions/ecomm/v2/sync/errors/app/{appId}', tag: 'Status and errors', summary: "An application's errors in every portal", security: CREDENTIALS.developerApplication, query: v2Listing, responses: v2Errors('The errors'), errors: [400, 403, 404] },
];

/** The integrators' API of the gateway (SPEC.md v1 and v2). */
export const GATEWAY_SYNC_OPERATIONS: readonly ApiOperation[] = [...syncAndInstall, ...imports, ...settings, ...status];
