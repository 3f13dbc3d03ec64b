import { SEARCH_LIMITS, SEARCH_OPERATORS } from '../domain/crm-search';
import { closed, validator } from './schema-validator';
import { ASSOCIATION_BODY_SCHEMAS, associationSpecs } from './association-schemas';
import { idSchema, inputs } from './schema-parts';
import { SETUP_BODY_SCHEMAS } from './setup-schemas';

const propertyValues = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } } as const;
/** A caller's id of one input of a batch write: a 207 names the inputs it refused by it. */
const objectWriteTraceId = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** Associations given with a create (the SDK's PublicAssociationsForObject): each target by id, with the types that lead to it. */
const associationsOnCreate = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['to', 'types'],
    properties: { to: { type: 'object', required: ['id'], properties: { id: idSchema } }, types: associationSpecs },
  },
} as const;

const createBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: inputs({
      type: 'object',
      required: ['properties'],
      properties: { properties: propertyValues, objectWriteTraceId, associations: associationsOnCreate },
    }),
  },
} as const;
export const validateCreate = validator(createBody);

/** One object (basic API): its properties, and on a create the associations it starts with. */
const oneObjectBody = {
  type: 'object',
  required: ['properties'],
  properties: { properties: propertyValues, associations: associationsOnCreate },
} as const;
export const validateOneObject = validator(oneObjectBody);

/** One object's update (basic API): its properties only (the SDK's SimplePublicObjectInput). */
const oneObjectUpdateBody = { type: 'object', required: ['properties'], properties: { properties: propertyValues } } as const;
export const validateOneObjectUpdate = validator(oneObjectUpdateBody);

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

const searchValue = { type: ['string', 'number', 'boolean'] } as const;
const searchBody = {
  type: 'object',
  properties: {
    filterGroups: {
      type: 'array',
      maxItems: SEARCH_LIMITS.filterGroups,
      errorHint: `takes at most ${SEARCH_LIMITS.filterGroups} filter groups`,
      items: {
        type: 'object',
        required: ['filters'],
        properties: {
          filters: {
            type: 'array',
            maxItems: SEARCH_LIMITS.filtersPerGroup,
            errorHint: `takes at most ${SEARCH_LIMITS.filtersPerGroup} filters per group`,
            items: {
              type: 'object',
              required: ['propertyName', 'operator'],
              properties: {
                propertyName: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$', errorHint: 'must be a property name (letters, digits and _)' },
                operator: { type: 'string', enum: SEARCH_OPERATORS },
                value: searchValue,
                highValue: searchValue,
                values: { type: 'array', maxItems: 100, items: searchValue },
              },
            },
          },
        },
      },
    },
    sorts: {
      type: 'array',
      maxItems: 1,
      errorHint: 'takes one sort',
      items: {
        anyOf: [
          { type: 'string', pattern: '^-?[A-Za-z][A-Za-z0-9_]{0,99}$' },
          {
            type: 'object',
            required: ['propertyName'],
            properties: {
              propertyName: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$' },
              direction: { type: 'string', enum: ['ASCENDING', 'DESCENDING'] },
            },
          },
        ],
      },
    },
    properties: { type: 'array', items: { type: 'string' } },
    limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMITS.pageSize },
    after: {
      anyOf: [
        { type: 'string', pattern: '^[0-9]{1,9}$' },
        { type: 'integer', minimum: 0 },
      ],
    },
  },
} as const;
export const validateSearch = validator(searchBody);

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
  ...SETUP_BODY_SCHEMAS,
  createBody: closed(createBody),
  oneObjectBody: closed(oneObjectBody),
  oneObjectUpdateBody: closed(oneObjectUpdateBody),
  updateBody: closed(updateBody),
  upsertBody: closed(upsertBody),
  readOrArchiveBody: closed(readOrArchiveBody),
  readBody: closed(readBody),
  searchBody: closed(searchBody),
  ...ASSOCIATION_BODY_SCHEMAS,
  accountBody: closed(accountBody),
  limitsBody: closed(limitsBody),
  resetDailyBody: closed(resetDailyBody),
};
