import { FIELD_TYPES, PROPERTY_TYPES } from '../domain/object-types';
import { closed, validator } from './schema-validator';

/** A portal's setup as the hosted CRM's properties and pipelines APIs take it (the SDK's inputs). */

const groupName = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,99}$', errorHint: 'must be lower case letters, digits and _, starting with a letter' } as const;

/** The hosted CRM's PropertyCreate: `groupName` and `fieldType` are required there, and here. */
const propertyBody = {
  type: 'object',
  required: ['name', 'label', 'type', 'fieldType', 'groupName'],
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,99}$', errorHint: 'must be lower case letters, digits and _, starting with a letter' },
    label: { type: 'string', minLength: 1, maxLength: 200 },
    type: { type: 'string', enum: PROPERTY_TYPES },
    fieldType: { type: 'string', enum: FIELD_TYPES },
    groupName,
    description: { type: 'string', maxLength: 1000 },
    displayOrder: { type: 'integer' },
    hidden: { type: 'boolean' },
    formField: { type: 'boolean' },
    hasUniqueValue: { type: 'boolean' },
    options: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['label', 'value'],
        properties: {
          label: { type: 'string', maxLength: 200 },
          value: { type: 'string', maxLength: 200 },
          description: { type: 'string', maxLength: 1000 },
          displayOrder: { type: 'integer' },
          hidden: { type: 'boolean' },
        },
      },
    },
  },
} as const;
export const validateProperty = validator(propertyBody);

/** The hosted CRM's PropertyGroupCreate. */
const propertyGroupBody = {
  type: 'object',
  required: ['name', 'label'],
  properties: { name: groupName, label: { type: 'string', minLength: 1, maxLength: 200 }, displayOrder: { type: 'integer' } },
} as const;
export const validatePropertyGroup = validator(propertyGroupBody);

/** A deal stage's metadata: the hosted CRM requires a probability (0 to 1); `isClosed` marks won or lost. */
const stageMetadata = {
  type: 'object',
  required: ['probability'],
  properties: {
    probability: { type: 'string', pattern: '^(0(\\.[0-9]+)?|1(\\.0+)?)$', errorHint: 'must be a probability from 0.0 to 1.0' },
    isClosed: { enum: ['true', 'false'] },
  },
} as const;

/** The hosted CRM's PipelineStageInput: no id, the CRM makes it. */
const stageBody = {
  type: 'object',
  required: ['label', 'displayOrder', 'metadata'],
  properties: { label: { type: 'string', minLength: 1, maxLength: 200 }, displayOrder: { type: 'integer' }, metadata: stageMetadata },
} as const;
export const validateStage = validator(stageBody);

/** The hosted CRM's PipelineInput: no ids, the CRM makes them. */
const pipelineBody = {
  type: 'object',
  required: ['label', 'displayOrder', 'stages'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200 },
    displayOrder: { type: 'integer' },
    stages: { type: 'array', maxItems: 100, items: stageBody },
  },
} as const;
export const validatePipeline = validator(pipelineBody);

/** The hosted CRM's PipelinePatchInput: the pipeline's own fields; its stages change through their own endpoints. */
const pipelinePatchBody = {
  type: 'object',
  properties: { label: { type: 'string', minLength: 1, maxLength: 200 }, displayOrder: { type: 'integer' }, archived: { type: 'boolean' } },
} as const;
export const validatePipelinePatch = validator(pipelinePatchBody);

/** The hosted CRM's PipelineStagePatchInput. */
const stagePatchBody = {
  type: 'object',
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200 },
    displayOrder: { type: 'integer' },
    metadata: stageMetadata,
    archived: { type: 'boolean' },
  },
} as const;
export const validateStagePatch = validator(stagePatchBody);

/** The setup bodies as they are validated (closed), for the CRM's OpenAPI document. */
export const SETUP_BODY_SCHEMAS = {
  propertyBody: closed(propertyBody),
  propertyGroupBody: closed(propertyGroupBody),
  pipelineBody: closed(pipelineBody),
  pipelinePatchBody: closed(pipelinePatchBody),
  stageBody: closed(stageBody),
  stagePatchBody: closed(stagePatchBody),
};
