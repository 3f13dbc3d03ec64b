import { ERROR_TYPES } from '../enums';
import type { ApiOperation, ApiParameter } from './openapi-builder';
import { CREDENTIALS } from './security';

const json = (description: string) => ({ 200: { description, schema: { type: 'object' } } });
const portalId: ApiParameter = { description: "Only this portal: the credential's own (another portal answers 403)", schema: { type: 'integer', minimum: 1 } };
const appId: ApiParameter = { description: 'The application, with a developer key', schema: { type: 'string' } };
const signedIn = { security: CREDENTIALS.consoleUser, query: { portalId, appId } } as const;

/** The web console (decision 0033): its page, and its API for what the other endpoints do not answer. */
export const GATEWAY_CONSOLE_OPERATIONS: readonly ApiOperation[] = [
  { method: 'get', path: '/console', tag: 'Console', summary: 'The web console (its build: HTML, scripts, styles)', security: CREDENTIALS.none, responses: { 200: { description: 'The page' } }, errors: [404] },
  {
    method: 'get', path: '/console/{page}', tag: 'Console', summary: "A file of the console's build, or the page for a client route", security: CREDENTIALS.none,
    responses: { 200: { description: 'The file or the page' } }, errors: [404],
  },
  { method: 'get', path: '/console/api/v1/session', tag: 'Console', summary: 'Who the credential signs in as: customer or integrator, and their scope', ...signedIn, responses: json('The session'), errors: [400, 403, 404] },
  { method: 'get', path: '/console/api/v1/overview', tag: 'Console', summary: 'Objects per type by state and open errors, per store', ...signedIn, responses: json('The overview'), errors: [400, 403, 404] },
  {
    method: 'get', path: '/console/api/v1/errors', tag: 'Console', summary: 'Errors with what to do about each, filtered and paged', ...signedIn,
    query: {
      portalId,
      appId,
      storeId: { description: 'Only this store', schema: { type: 'string' } },
      objectType: { description: 'Only this object type', schema: { type: 'string' } },
      errorType: { description: 'Only this error type', schema: { type: 'string', enum: ERROR_TYPES } },
      status: { description: 'OPEN (default) or RESOLVED', schema: { type: 'string' } },
      page: { description: 'A 1-based record offset', schema: { type: 'integer', minimum: 1 } },
      limit: { description: 'Records per page', schema: { type: 'integer', minimum: 1 } },
    },
    responses: json('A page of errors'), errors: [400, 403, 404],
  },
  {
    method: 'post', path: '/console/api/v1/errors/retry', tag: 'Console', summary: 'Re-apply one object, or every object with an open error of one type, from what is stored', ...signedIn,
    body: { schema: { type: 'object' } }, responses: { 202: { description: 'The re-apply is queued', schema: { type: 'object' } } }, errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/console/api/v1/objects', tag: 'Console', summary: "One object: status, CRM id, messages received, merged state, mapped properties, errors", ...signedIn,
    query: {
      portalId,
      appId,
      storeId: { description: 'The store', schema: { type: 'string' } },
      objectType: { description: 'CONTACT, DEAL, PRODUCT or LINE_ITEM', schema: { type: 'string' } },
      externalObjectId: { description: 'The sender’s object id', schema: { type: 'string' } },
    },
    responses: json('The object as inspected'), errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/console/api/v1/mappings/crm-properties', tag: 'Console', summary: "The properties the portal's CRM defines for an object type", ...signedIn,
    query: { portalId, appId, objectType: { description: 'CONTACT, DEAL, PRODUCT or LINE_ITEM', schema: { type: 'string' } } }, responses: json('The CRM properties'), errors: [400, 403, 404, 502],
  },
  {
    method: 'post', path: '/console/api/v1/mappings/validate', tag: 'Console', summary: 'Check draft v2 settings against the enabling rules, saving nothing', ...signedIn,
    body: { schema: { type: 'object' } }, responses: json('The first rule the draft breaks, or none'), errors: [400, 403, 404],
  },
  {
    method: 'post', path: '/console/api/v1/mappings/dry-run', tag: 'Console', summary: 'Map a stored object or a typed message with draft settings, saving nothing', ...signedIn,
    body: { schema: { type: 'object' } }, responses: json('The mapped properties and the errors it would get'), errors: [400, 403, 404, 502],
  },
  {
    method: 'get', path: '/console/api/v1/report', tag: 'Console', summary: "A store's report from its CRM data: revenue by deal stage, abandoned checkouts, top products", ...signedIn,
    query: { portalId, appId, storeId: { description: 'Only this store', schema: { type: 'string' } } }, responses: json('The report'), errors: [400, 403, 404, 502],
  },
  {
    method: 'get', path: '/console/api/v1/activity', tag: 'Console', summary: 'Messages received and objects applied per bucket over the last hour or day', ...signedIn,
    query: { portalId, appId, window: { description: 'hour (5-minute buckets, default) or day (hourly buckets)', schema: { type: 'string', enum: ['hour', 'day'] } } },
    responses: json('The buckets'), errors: [400, 403, 404],
  },
  { method: 'get', path: '/console/api/v1/ops/session', tag: 'Console', summary: 'The operator signs in (admin token)', security: CREDENTIALS.admin, responses: json('The session') },
  { method: 'get', path: '/console/api/v1/ops/queues', tag: 'Console', summary: "Each queue's depth, consumers, retrying and dead-lettered messages", security: CREDENTIALS.admin, responses: json('The queues'), errors: [503] },
  {
    method: 'get', path: '/console/api/v1/ops/queues/{queue}/dead-letters', tag: 'Console', summary: "A queue's dead-lettered messages with headers and bodies, left in place", security: CREDENTIALS.admin,
    pathParams: { queue: { description: 'A queue name as the queues list gives it', schema: { type: 'string' } } },
    query: { limit: { description: 'Messages to show, 1 to 100 (default 20)', schema: { type: 'integer', minimum: 1, maximum: 100 } } }, responses: json('The messages'), errors: [400, 404, 503],
  },
  { method: 'get', path: '/console/api/v1/ops/services', tag: 'Console', summary: "Each service's readiness (its /readyz)", security: CREDENTIALS.admin, responses: json('The services') },
  { method: 'get', path: '/console/api/v1/ops/crm-accounts', tag: 'Console', summary: "Each CRM account's request budget and rate-limit state", security: CREDENTIALS.admin, responses: json('The accounts'), errors: [503] },
  {
    method: 'post', path: '/console/api/v1/ops/queues/{queue}/redrive', tag: 'Console', summary: "Send a queue's dead-lettered messages back to it", security: CREDENTIALS.admin,
    pathParams: { queue: { description: 'A queue name as the queues list gives it', schema: { type: 'string' } } }, responses: json('How many were redriven'), errors: [400, 404, 503],
  },
];
