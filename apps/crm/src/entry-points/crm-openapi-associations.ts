import type { ApiOperation, ApiParameter } from '@ecomm-sync/contracts';
import { CRM_TYPES } from '../domain/object-types';
import { CRM_BODY_SCHEMAS as body } from './schemas';

// The v4 associations API beyond the batch default create (association.routes.ts), in the CRM's OpenAPI document.

const portalToken = [{ crmToken: [] }];
const type: ApiParameter = { description: 'contacts, deals, products or line_items', schema: { type: 'string', enum: CRM_TYPES } };
const object = { type: 'object' } as const;
const ok = (description: string, schema: object = object) => ({ 200: { description, schema } });

const idParam = (description: string): ApiParameter => ({ description, schema: { type: 'string', pattern: '^[0-9]{1,15}$' } });
const associations = (operation: Omit<ApiOperation, 'tag' | 'security'>): ApiOperation => ({
  ...operation,
  tag: 'Associations',
  security: portalToken,
  errors: [400, 404],
});
const onePair = { from: type, fromId: idParam('The object'), to: type, toId: idParam('The object to associate with') };

export const ASSOCIATION_OPERATIONS: readonly ApiOperation[] = [
  associations({
    method: 'put',
    path: '/crm/v4/objects/{from}/{fromId}/associations/default/{to}/{toId}',
    summary: 'Associate two objects by the default type (both ways)',
    pathParams: onePair,
    responses: ok('Associated'),
  }),
  associations({
    method: 'put',
    path: '/crm/v4/objects/{from}/{fromId}/associations/{to}/{toId}',
    summary: 'Associate two objects naming the type (the built-in CRM makes the default type only)',
    pathParams: onePair,
    body: { schema: body.associationSpecs },
    responses: { 201: { description: 'Associated', schema: object } },
  }),
  associations({
    method: 'get',
    path: '/crm/v4/objects/{from}/{fromId}/associations/{to}',
    summary: "An object's associated objects of a type, with their association types",
    pathParams: { from: type, fromId: idParam('The object'), to: type },
    responses: ok('{results: [{toObjectId, associationTypes}]}'),
  }),
  associations({
    method: 'delete',
    path: '/crm/v4/objects/{from}/{fromId}/associations/{to}/{toId}',
    summary: 'Remove the association of two objects (both ways)',
    pathParams: onePair,
    responses: { 204: { description: 'Removed' } },
  }),
  associations({
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/batch/read',
    summary: 'The associated objects of up to 100 objects',
    pathParams: { from: type, to: type },
    body: { schema: body.associationBatchReadBody },
    responses: ok('{status, results: [{from, to: [{toObjectId, associationTypes}]}]}'),
  }),
  associations({
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/batch/archive',
    summary: 'Remove associations of up to 100 objects (both ways)',
    pathParams: { from: type, to: type },
    body: { schema: body.associationBatchArchiveBody },
    responses: { 204: { description: 'Removed' } },
  }),
];
