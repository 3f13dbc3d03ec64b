import type { ApiOperation, ApiParameter } from '@ecomm-sync/contracts';
import { CRM_TYPES } from '../domain/object-types';
import { CRM_BODY_SCHEMAS as body } from './schemas';

// The v4 associations API beyond the batch default create (association.routes.ts) and its labels
// (association-label.routes.ts), in the CRM's OpenAPI document.

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
    summary: "Associate two objects naming the types: the pair's default type and the portal's labels (both ways)",
    pathParams: onePair,
    body: { schema: body.associationSpecs },
    responses: { 201: { description: '{fromObjectTypeId, fromObjectId, toObjectTypeId, toObjectId, labels}', schema: object } },
  }),
  associations({
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/batch/create',
    summary: "Associate up to 100 pairs naming the types: the default type and the portal's labels (both ways)",
    pathParams: { from: type, to: type },
    body: { schema: body.associationTypedBody },
    responses: { 201: { description: '{status, results: [{fromObjectId, toObjectId, labels}]}', schema: object } },
  }),
  associations({
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/batch/labels/archive',
    summary: 'Take labels off up to 100 associations (both ways); the associations stay, with their default type',
    pathParams: { from: type, to: type },
    body: { schema: body.associationTypedBody },
    responses: { 204: { description: 'Removed' } },
  }),
  associations({
    method: 'get',
    path: '/crm/v4/associations/{from}/{to}/labels',
    summary: "The association types from one object type to another: the default, then the portal's labels",
    pathParams: { from: type, to: type },
    responses: ok('{results: [{category, typeId, label}]}'),
  }),
  associations({
    method: 'post',
    path: '/crm/v4/associations/{from}/{to}/labels',
    summary: 'Define an association label: a type id per direction (a paired label names the other direction inverseLabel)',
    pathParams: { from: type, to: type },
    body: { schema: body.associationLabelBody },
    responses: ok('{results: [{category: USER_DEFINED, typeId, label}]}: from → to, then to → from'),
  }),
  associations({
    method: 'put',
    path: '/crm/v4/associations/{from}/{to}/labels',
    summary: 'Rename a label by the type id of one direction: label names that direction, inverseLabel the other',
    pathParams: { from: type, to: type },
    body: { schema: body.associationLabelUpdateBody },
    responses: { 204: { description: 'Renamed' } },
  }),
  associations({
    method: 'delete',
    path: '/crm/v4/associations/{from}/{to}/labels/{associationTypeId}',
    summary: 'Delete a label by the type id of either direction; the associations that carried it keep their default type',
    pathParams: {
      from: type,
      to: type,
      associationTypeId: { description: "A type id of one of the label's directions", schema: { type: 'string', pattern: '^[0-9]{1,9}$' } },
    },
    responses: { 204: { description: 'Deleted' } },
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
