import { closed, validator } from './schema-validator';
import { idSchema, inputs } from './schema-parts';

// The request bodies of the v4 associations API (association.routes.ts).

/** One end of an association pair: an object by its CRM id. */
const objectRef = { type: 'object', required: ['id'], properties: { id: idSchema } } as const;

const associationsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: objectRef,
        to: objectRef,
      },
    }),
  },
} as const;
export const validateAssociations = validator(associationsBody);

/** Association types as the v4 API names them (the SDK's AssociationSpec): a pair's default type, or a label's. */
export const associationSpecs = {
  type: 'array',
  minItems: 1,
  maxItems: 10,
  items: {
    type: 'object',
    required: ['associationCategory', 'associationTypeId'],
    properties: {
      associationCategory: { type: 'string', enum: ['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED'] },
      associationTypeId: { type: 'integer' },
    },
  },
} as const;
export const validateAssociationSpecs = validator(associationSpecs);

/** Pairs with the types to give them (batch/create) or take off them (batch/labels/archive): the SDK's PublicAssociationMultiPost. */
const associationTypedBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['from', 'to', 'types'],
      properties: { from: objectRef, to: objectRef, types: associationSpecs },
    }),
  },
} as const;
export const validateAssociationTyped = validator(associationTypedBody);

/** A new association label (the SDK's PublicAssociationDefinitionCreateRequest). */
const associationLabelBody = {
  type: 'object',
  required: ['name', 'label'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9_ -]{0,99}$', errorHint: 'must be 1 to 100 letters, digits, _, - or spaces' },
    label: { type: 'string', minLength: 1, maxLength: 100 },
    inverseLabel: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;
export const validateAssociationLabel = validator(associationLabelBody);

/** A label's new names, through the type id of one direction (the SDK's PublicAssociationDefinitionUpdateRequest). */
const associationLabelUpdateBody = {
  type: 'object',
  required: ['associationTypeId', 'label'],
  properties: {
    associationTypeId: { type: 'integer' },
    label: associationLabelBody.properties.label,
    inverseLabel: associationLabelBody.properties.inverseLabel,
  },
} as const;
export const validateAssociationLabelUpdate = validator(associationLabelUpdateBody);

const associationBatchReadBody = {
  type: 'object',
  required: ['inputs'],
  properties: { inputs: inputs({ type: 'object', required: ['id'], properties: { id: idSchema, after: { type: 'string' } } }) },
} as const;
export const validateAssociationBatchRead = validator(associationBatchReadBody);

const associationBatchArchiveBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: objectRef,
        to: { type: 'array', maxItems: 100, items: objectRef },
      },
    }),
  },
} as const;
export const validateAssociationBatchArchive = validator(associationBatchArchiveBody);

/** The bodies as they are validated (closed), for the CRM's OpenAPI document. */
export const ASSOCIATION_BODY_SCHEMAS = {
  associationsBody: closed(associationsBody),
  associationSpecs: closed(associationSpecs),
  associationTypedBody: closed(associationTypedBody),
  associationLabelBody: closed(associationLabelBody),
  associationLabelUpdateBody: closed(associationLabelUpdateBody),
  associationBatchReadBody: closed(associationBatchReadBody),
  associationBatchArchiveBody: closed(associationBatchArchiveBody),
};
