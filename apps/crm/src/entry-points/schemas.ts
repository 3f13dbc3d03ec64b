import { createValidator } from '@ecomm-sync/contracts';
import type { JSONSchema } from 'json-schema-to-ts';
import { FIELD_TYPES, PROPERTY_TYPES } from '../domain/object-types';

/**
 * Every body schema is closed: an object that names its properties accepts no other field, so a
 * caller can never slip a field (a `portalId`, say) past the schema into what is stored.
 * Maps of property values stay open by design (their `additionalProperties` is a value schema).
 */
function closed<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => closed(item)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, closed(sub)])) : closed(value),
    ]),
  );
  if ('properties' in node && !('additionalProperties' in node)) node.additionalProperties = false;
  return node as T;
}

/** The validated body's type comes from the schema itself (decision 0030). */
const validator = <const S extends JSONSchema>(schema: S) => createValidator(closed(schema));

const propertyValues = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } } as const;
const idSchema = {
  anyOf: [
    { type: 'string', pattern: '^[0-9]{1,15}$' },
    { type: 'integer', minimum: 1 },
  ],
} as const;
/** A caller's id of one input of a batch write: a 207 names the inputs it refused by it. */
const objectWriteTraceId = { type: 'string', minLength: 1, maxLength: 200 } as const;
const inputs = <const I extends JSONSchema>(item: I) =>
  ({ type: 'array', minItems: 1, maxItems: 100, items: item, errorHint: 'must hold 1 to 100 inputs' }) as const;

const createBody = {
  type: 'object',
  required: ['inputs'],
  properties: { inputs: inputs({ type: 'object', required: ['properties'], properties: { properties: propertyValues, objectWriteTraceId } }) },
} as const;
export const validateCreate = validator(createBody);

const updateBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({ type: 'object', required: ['id', 'properties'], properties: { id: idSchema, properties: propertyValues, objectWriteTraceId } }),
  },
} as const;
export const validateUpdate = validator(updateBody);

const upsertBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['id', 'idProperty', 'properties'],
      properties: { id: { type: 'string', minLength: 1 }, idProperty: { type: 'string', minLength: 1 }, properties: propertyValues, objectWriteTraceId },
    }),
  },
} as const;
export const validateUpsert = validator(upsertBody);

const readOrArchiveBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({ type: 'object', required: ['id'], properties: { id: idSchema } }),
    properties: { type: 'array', items: { type: 'string' } },
  },
} as const;
export const validateIds = validator(readOrArchiveBody);

/** A batch read: by object id, or by the value of a property with unique values named in `idProperty` (contacts: `email` too). */
const readBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({ type: 'object', required: ['id'], properties: { id: { anyOf: [idSchema, { type: 'string', minLength: 1, maxLength: 1000 }] } } }),
    properties: { type: 'array', items: { type: 'string' } },
    propertiesWithHistory: { type: 'array', items: { type: 'string' } },
    idProperty: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;
export const validateRead = validator(readBody);

const searchBody = {
  type: 'object',
  properties: {
    filterGroups: {
      type: 'array',
      maxItems: 1,
      errorHint: 'supports one filter group',
      items: {
        type: 'object',
        required: ['filters'],
        properties: {
          filters: {
            type: 'array',
            items: {
              type: 'object',
              required: ['propertyName', 'operator'],
              properties: {
                propertyName: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$', errorHint: 'must be a property name (letters, digits and _)' },
                operator: { type: 'string', enum: ['EQ', 'IN'] },
                value: { type: ['string', 'number'] },
                values: { type: 'array', maxItems: 100, items: { type: ['string', 'number'] } },
              },
            },
          },
        },
      },
    },
    properties: { type: 'array', items: { type: 'string' } },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    after: {
      anyOf: [
        { type: 'string', pattern: '^[0-9]+$' },
        { type: 'integer', minimum: 0 },
      ],
    },
  },
} as const;
export const validateSearch = validator(searchBody);

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

const associationsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: { type: 'object', required: ['id'], properties: { id: idSchema } },
        to: { type: 'object', required: ['id'], properties: { id: idSchema } },
      },
    }),
  },
} as const;
export const validateAssociations = validator(associationsBody);

const accountBody = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 16 }, pipelineLimit: { type: 'integer', minimum: 0 } },
} as const;
export const validateAccount = validator(accountBody);

/** An account's hosted limits (PUT .../limits; a body of null switches them off). */
const limitsBody = {
  type: 'object',
  required: ['burstPer10s', 'dailyCap', 'timeZone', 'searchPerSecond'],
  properties: {
    burstPer10s: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    intervalMs: { type: 'integer', minimum: 100, maximum: 86_400_000 },
    dailyCap: { type: 'integer', minimum: 1, maximum: 1_000_000_000 },
    timeZone: { type: 'string', minLength: 1, maxLength: 64 },
    searchPerSecond: { type: 'integer', minimum: 1, maximum: 10_000 },
    invalidMarker: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;
export const validateLimits = validator(limitsBody);

const resetDailyBody = {
  type: 'object',
  properties: { nextResetAt: { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000, errorHint: 'must be epoch milliseconds' } },
} as const;
export const validateResetDaily = validator(resetDailyBody);

/** The bodies as they are validated (closed), for the CRM's OpenAPI document. */
export const CRM_BODY_SCHEMAS = {
  createBody: closed(createBody),
  updateBody: closed(updateBody),
  upsertBody: closed(upsertBody),
  readOrArchiveBody: closed(readOrArchiveBody),
  readBody: closed(readBody),
  searchBody: closed(searchBody),
  propertyBody: closed(propertyBody),
  propertyGroupBody: closed(propertyGroupBody),
  pipelineBody: closed(pipelineBody),
  pipelinePatchBody: closed(pipelinePatchBody),
  stageBody: closed(stageBody),
  stagePatchBody: closed(stagePatchBody),
  associationsBody: closed(associationsBody),
  accountBody: closed(accountBody),
  limitsBody: closed(limitsBody),
  resetDailyBody: closed(resetDailyBody),
};
