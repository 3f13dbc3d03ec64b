import { OR_NULL, type FromWireSchema } from './validation';
import type { DataType, ObjectType } from './enums';
import { DATA_TYPES, OBJECT_TYPES } from './enums';

/** A mapping in the service's own terms (the v2 names); v1 names map onto it one to one. */
export interface PropertyMapping {
  externalPropertyName: string;
  crmPropertyName: string;
  dataType: DataType;
}

/** The settings of an application, or of a portal in direct mode, as the processing sees them. */
export interface SyncSettings {
  enabled: boolean;
  mappings: Partial<Record<ObjectType, PropertyMapping[]>>;
}

// ---- v1 wire ---------------------------------------------------------------------------------

const name = (what: string) =>
  ({ type: 'string', minLength: 1, maxLength: 256, errorHint: `must be a non-empty ${what} name of at most 256 characters` }) as const;
const dataTypeSchema = { type: 'string', enum: DATA_TYPES } as const;

const v1MappingSchema = {
  type: 'object',
  required: ['propertyName', 'targetCrmProperty', 'dataType'],
  additionalProperties: false,
  properties: { propertyName: name('property'), targetCrmProperty: name('CRM property'), dataType: dataTypeSchema },
} as const;
export type V1PropertyMapping = FromWireSchema<typeof v1MappingSchema>;

const v1Mappings = { type: 'array', maxItems: 1000, items: v1MappingSchema } as const;
const v1Block = { type: 'object', additionalProperties: false, properties: { properties: v1Mappings } } as const;

/**
 * What a PUT takes where a field is optional: null too, the same as leaving it out (SPEC.md: "blank
 * values clear existing data"; clients that serialise every field send an unset one as null, as
 * in sync messages, decision 60).
 */
const optionalBoolean = { type: ['boolean', 'null'], errorHint: `must be true or false${OR_NULL}` } as const;
const v1BlockInput = {
  type: ['object', 'null'],
  additionalProperties: false,
  errorHint: `must be an object {"properties": [mappings]}${OR_NULL}`,
  properties: { properties: { ...v1Mappings, type: ['array', 'null'], errorHint: `must be an array of at most 1000 mappings${OR_NULL}` } },
} as const;

/** PUT /extensions/ecomm/v1/settings: a full replace, so a missing block (or one sent as null) is an empty one. */
export const v1SettingsSchema = {
  $id: 'v1-settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: optionalBoolean,
    importOnInstall: optionalBoolean,
    productSyncSettings: v1BlockInput,
    dealSyncSettings: v1BlockInput,
    lineItemSyncSettings: v1BlockInput,
    contactSyncSettings: v1BlockInput,
  },
} as const;
export type V1SettingsInput = FromWireSchema<typeof v1SettingsSchema>;

const v1BlockView = { ...v1Block, required: ['properties'] } as const;

/** GET (and the answer to PUT) /extensions/ecomm/v1/settings: always every field. */
export const v1SettingsViewSchema = {
  $id: 'v1-settings-view',
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'importOnInstall', 'productSyncSettings', 'dealSyncSettings', 'lineItemSyncSettings', 'contactSyncSettings'],
  properties: {
    enabled: { type: 'boolean' },
    importOnInstall: { type: 'boolean' },
    productSyncSettings: v1BlockView,
    dealSyncSettings: v1BlockView,
    lineItemSyncSettings: v1BlockView,
    contactSyncSettings: v1BlockView,
  },
} as const;
export type V1Settings = FromWireSchema<typeof v1SettingsViewSchema>;

/** The v1 settings block of each object type. */
export const V1_SETTINGS_BLOCKS = {
  PRODUCT: 'productSyncSettings',
  DEAL: 'dealSyncSettings',
  LINE_ITEM: 'lineItemSyncSettings',
  CONTACT: 'contactSyncSettings',
} as const satisfies Record<ObjectType, keyof V1Settings>;

// ---- v2 wire ---------------------------------------------------------------------------------

const v2MappingSchema = {
  type: 'object',
  required: ['externalPropertyName', 'crmPropertyName'],
  additionalProperties: false,
  properties: {
    externalPropertyName: name('property'),
    crmPropertyName: name('CRM property'),
    // Optional in v2 (SPEC.md): left out or null, a STRING mapping.
    dataType: { type: ['string', 'null'], enum: [...DATA_TYPES, null], errorHint: `must be one of ${DATA_TYPES.join(', ')}${OR_NULL}` },
  },
} as const;
export type V2PropertyMapping = FromWireSchema<typeof v2MappingSchema>;

const v2Block = {
  type: ['object', 'null'],
  additionalProperties: false,
  errorHint: `must be an object {"properties": [mappings]}${OR_NULL}`,
  properties: {
    properties: { type: ['array', 'null'], maxItems: 1000, items: v2MappingSchema, errorHint: `must be an array of at most 1000 mappings${OR_NULL}` },
  },
} as const;

const httpUri = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048, errorHint: 'must be an absolute http(s) URI' } as const;

export const v2SettingsSchema = {
  $id: 'v2-settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: optionalBoolean,
    /** The v1 setting, accepted in v2 too (clients send one settings object to both); kept when left out. */
    importOnInstall: optionalBoolean,
    webhookUri: { anyOf: [httpUri, { type: 'null' }], errorHint: 'must be an absolute http(s) URI or null' },
    mappings: {
      type: ['object', 'null'],
      additionalProperties: false,
      errorHint: `must be an object whose keys are object types (${OBJECT_TYPES.join(', ')})${OR_NULL}`,
      properties: { CONTACT: v2Block, DEAL: v2Block, PRODUCT: v2Block, LINE_ITEM: v2Block },
    },
  },
} as const;
export type V2SettingsInput = FromWireSchema<typeof v2SettingsSchema>;

const v2BlockView = {
  type: 'object',
  additionalProperties: false,
  required: ['properties'],
  properties: {
    properties: {
      type: 'array',
      items: {
        ...v2MappingSchema,
        required: ['externalPropertyName', 'crmPropertyName', 'dataType'],
        properties: { ...v2MappingSchema.properties, dataType: dataTypeSchema },
      },
    },
  },
} as const;

/** GET (and the answer to PUT) /extensions/ecomm/v2/settings: every object type, every mapping with its data type. */
export const v2SettingsViewSchema = {
  $id: 'v2-settings-view',
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'webhookUri', 'mappings'],
  properties: {
    enabled: { type: 'boolean' },
    webhookUri: { type: ['string', 'null'] },
    mappings: {
      type: 'object',
      additionalProperties: false,
      required: ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'],
      properties: { CONTACT: v2BlockView, DEAL: v2BlockView, PRODUCT: v2BlockView, LINE_ITEM: v2BlockView },
    },
  },
} as const;
export type V2Settings = FromWireSchema<typeof v2SettingsViewSchema>;

// ---- v1 import settings ----------------------------------------------------------------------

export const v1ImportSettingsSchema = {
  $id: 'v1-import-settings',
  type: 'object',
  required: ['importTriggerUri'],
  additionalProperties: false,
  properties: { importTriggerUri: httpUri },
} as const;
export type V1ImportSettings = FromWireSchema<typeof v1ImportSettingsSchema>;

/** GET /extensions/ecomm/v1/import-settings: null before one is set. */
export const v1ImportSettingsViewSchema = {
  $id: 'v1-import-settings-view',
  type: 'object',
  required: ['importTriggerUri'],
  additionalProperties: false,
  properties: { importTriggerUri: { type: ['string', 'null'] } },
} as const;

// ---- re-applying after a change --------------------------------------------------------------

/** GET .../settings/reapply-status: the newest re-apply job. */
export const reapplyStatusSchema = {
  $id: 'reapply-status',
  type: 'object',
  additionalProperties: false,
  required: ['settingsRev', 'status', 'objectTypes', 'objectsProcessed', 'startedAt', 'updatedAt', 'finishedAt'],
  properties: {
    settingsRev: { type: 'integer' },
    status: { type: 'string', enum: ['running', 'completed', 'superseded'] },
    objectTypes: { type: 'array', items: { type: 'string', enum: OBJECT_TYPES } },
    objectsProcessed: { type: 'integer' },
    startedAt: { type: 'integer' },
    updatedAt: { type: 'integer' },
    finishedAt: { type: ['integer', 'null'] },
  },
} as const;

/** POST .../settings/reapply: 202. */
export const reapplyStartedSchema = {
  $id: 'reapply-started',
  type: 'object',
  required: ['settingsRev', 'objectTypes'],
  properties: { settingsRev: { type: 'integer' }, objectTypes: { type: 'array', items: { type: 'string', enum: OBJECT_TYPES } } },
} as const;
