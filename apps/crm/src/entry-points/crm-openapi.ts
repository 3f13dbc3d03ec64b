import { buildOpenApiDocument, errorBodySchema, SERVICE_OPERATIONS, type ApiOperation, type ApiParameter } from '@ecomm-sync/contracts';
import { CRM_TYPES } from '../domain/object-types';
import { ADMIN_OPERATIONS } from './crm-openapi-admin';
import { ASSOCIATION_OPERATIONS } from './crm-openapi-associations';
import { OAUTH_OPERATIONS, withOAuthErrorAnswer } from './crm-openapi-oauth';
import { PIPELINE_OPERATIONS } from './crm-openapi-pipelines';
import { CRM_BODY_SCHEMAS as body } from './schemas';

const SECURITY_SCHEMES = {
  crmToken: {
    type: 'http',
    scheme: 'bearer',
    description: "The portal's CRM token (made with PUT /crm/admin/v1/accounts/{portalId}), or an access token of POST /oauth/v1/token until it expires.",
  },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token `ADMIN_TOKEN`.' },
};
const portalToken = [{ crmToken: [] }];

const type: ApiParameter = { description: 'contacts, deals, products or line_items', schema: { type: 'string', enum: CRM_TYPES } };
const object = { type: 'object' } as const;
const batchAnswer = {
  type: 'object',
  required: ['status', 'results'],
  properties: {
    status: { const: 'COMPLETE' },
    results: { type: 'array', items: object },
    startedAt: { type: 'string', format: 'date-time' },
    completedAt: { type: 'string', format: 'date-time' },
  },
} as const;
const partly = {
  207: { description: 'Some inputs were refused (an account emulating hosted limits with an invalid marker): `errors` names them', schema: object },
};
const ok = (description: string, schema: object = object) => ({ 200: { description, schema } });
const objects = (operation: Omit<ApiOperation, 'tag' | 'security'>): ApiOperation => ({
  ...operation,
  tag: 'Objects',
  security: portalToken,
  pathParams: { type, ...operation.pathParams },
  errors: [404, ...(operation.errors ?? [])],
});
const objectIdParam: ApiParameter = { description: "The object's id, or with idProperty a unique value", schema: { type: 'string' } };
/** A list parameter, repeated or comma-separated, as the vendor's SDK and the hosted CRM take it. */
const listQuery = (description: string): ApiParameter => ({
  description: `${description}: repeated (properties=a&properties=b) or comma-separated`,
  schema: { type: 'string' },
});

/** The built-in CRM's objects API and its admin API (docs/api.md "Built-in CRM"). */
export const CRM_OPERATIONS: readonly ApiOperation[] = [
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/batch/create',
    summary: 'Create up to 100 objects, each with the associations it starts with',
    body: { schema: body.createBody },
    responses: { 201: { description: 'Created', schema: batchAnswer }, ...partly },
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/batch/update',
    summary: 'Update up to 100 objects',
    body: { schema: body.updateBody },
    responses: { ...ok('Updated', batchAnswer), ...partly },
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/batch/upsert',
    summary: 'Create or update up to 100 objects by a unique property',
    body: { schema: body.upsertBody },
    responses: { ...ok('Written', batchAnswer), ...partly },
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/batch/archive',
    summary: 'Archive up to 100 objects',
    body: { schema: body.readOrArchiveBody },
    responses: { 204: { description: 'Archived' } },
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/batch/read',
    summary: 'Read up to 100 objects, by id or by a unique property (idProperty; contacts: email)',
    body: { schema: body.readBody },
    responses: {
      ...ok('The objects', batchAnswer),
      207: { description: 'Some inputs were not found: `errors` names them (OBJECT_NOT_FOUND)', schema: object },
    },
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}/search',
    summary: 'Search: up to 5 filter groups of up to 6 filters, every operator, one sort, 200 per page, 10,000 results',
    body: { schema: body.searchBody },
    responses: ok('The matches'),
  }),
  objects({
    method: 'post',
    path: '/crm/v3/objects/{type}',
    summary: 'Create one object, with the associations it starts with',
    body: { schema: body.oneObjectBody },
    responses: { 201: { description: 'Created', schema: object } },
    errors: [400, 409],
  }),
  objects({
    method: 'get',
    path: '/crm/v3/objects/{type}',
    summary: 'One page of the live objects, by id',
    query: {
      limit: { description: 'At most 100 (default 10)', schema: { type: 'integer', minimum: 1, maximum: 100 } },
      after: { description: 'The paging cursor of the previous page', schema: { type: 'string' } },
      properties: listQuery('Properties to answer'),
      propertiesWithHistory: listQuery('Properties to answer with their last values, newest first'),
      associations: listQuery('Types whose associations to answer'),
    },
    responses: ok('{results, paging?}'),
  }),
  objects({
    method: 'get',
    path: '/crm/v3/objects/{type}/{id}',
    summary: 'One object, by id or by a unique property (idProperty)',
    pathParams: { type, id: objectIdParam },
    query: {
      properties: listQuery('Properties to answer'),
      propertiesWithHistory: listQuery('Properties to answer with their last values, newest first'),
      associations: listQuery('Types whose associations to answer'),
      idProperty: { description: 'A unique property (contacts: email) whose value {id} is', schema: { type: 'string' } },
    },
    responses: ok('The object'),
  }),
  objects({
    method: 'patch',
    path: '/crm/v3/objects/{type}/{id}',
    summary: 'Update one object, by id or by a unique property (idProperty)',
    pathParams: { type, id: objectIdParam },
    query: { idProperty: { description: 'A unique property (contacts: email) whose value {id} is', schema: { type: 'string' } } },
    body: { schema: body.oneObjectUpdateBody },
    responses: ok('The object'),
    errors: [400, 409],
  }),
  objects({
    method: 'delete',
    path: '/crm/v3/objects/{type}/{id}',
    summary: 'Archive one object (204 for an unknown or archived one too)',
    pathParams: { type, id: objectIdParam },
    responses: { 204: { description: 'Archived' } },
  }),
  {
    method: 'get',
    path: '/crm/v3/properties/{type}',
    tag: 'Properties',
    summary: "The portal's properties of a type",
    security: portalToken,
    pathParams: { type },
    responses: ok('{results: [properties]}'),
    errors: [404],
  },
  {
    method: 'post',
    path: '/crm/v3/properties/{type}',
    tag: 'Properties',
    summary: 'Define a property',
    security: portalToken,
    pathParams: { type },
    body: { schema: body.propertyBody },
    responses: { 201: { description: 'The property', schema: object } },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/crm/v3/properties/{type}/groups',
    tag: 'Properties',
    summary: "The portal's property groups of a type (the type's default group first)",
    security: portalToken,
    pathParams: { type },
    responses: ok('{results: [groups]}'),
    errors: [404],
  },
  {
    method: 'post',
    path: '/crm/v3/properties/{type}/groups',
    tag: 'Properties',
    summary: 'Define a property group',
    security: portalToken,
    pathParams: { type },
    body: { schema: body.propertyGroupBody },
    responses: { 201: { description: 'The group', schema: object } },
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/crm/v3/properties/{type}/{name}',
    tag: 'Properties',
    summary: 'Delete a property',
    security: portalToken,
    pathParams: { type },
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
  },
  ...PIPELINE_OPERATIONS,
  {
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/batch/associate/default',
    tag: 'Associations',
    summary: 'Associate objects (both ways)',
    security: portalToken,
    pathParams: { from: type, to: type },
    body: { schema: body.associationsBody },
    responses: ok('Associated: each pair both ways, with its association type', { type: 'object', properties: { status: { const: 'COMPLETE' } } }),
    errors: [404],
  },
  ...ASSOCIATION_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...SERVICE_OPERATIONS,
];

/** The built-in CRM's OpenAPI 3.1 document, a second document beside the gateway's. */
export function crmOpenApiDocument() {
  const document = buildOpenApiDocument({
    title: 'ecomm-sync built-in CRM',
    version: '1',
    description: 'The built-in CRM: a CRM v3 objects API per portal, and its admin API. Built from the JSON Schemas that validate its requests.',
    securitySchemes: SECURITY_SCHEMES,
    errorSchema: errorBodySchema,
    operations: CRM_OPERATIONS,
  });
  return withOAuthErrorAnswer(document);
}
