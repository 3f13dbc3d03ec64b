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

export interface V1PropertyMapping {
  propertyName: string;
  targetCrmProperty: string;
  dataType: DataType;
}

export interface V1Settings {
  enabled: boolean;
  importOnInstall: boolean;
  productSyncSettings: { properties: V1PropertyMapping[] };
  dealSyncSettings: { properties: V1PropertyMapping[] };
  lineItemSyncSettings: { properties: V1PropertyMapping[] };
  contactSyncSettings: { properties: V1PropertyMapping[] };
}

/** The v1 settings block of each object type. */
export const V1_SETTINGS_BLOCKS: Record<ObjectType, keyof Omit<V1Settings, 'enabled' | 'importOnInstall'>> = {
  PRODUCT: 'productSyncSettings',
  DEAL: 'dealSyncSettings',
  LINE_ITEM: 'lineItemSyncSettings',
  CONTACT: 'contactSyncSettings',
};

const name = (what: string) => ({ type: 'string', minLength: 1, maxLength: 256, errorHint: `must be a non-empty ${what} name of at most 256 characters` }) as const;
const dataTypeSchema = { type: 'string', enum: DATA_TYPES } as const;

const v1MappingSchema = {
  type: 'object',
  required: ['propertyName', 'targetCrmProperty', 'dataType'],
  additionalProperties: false,
  properties: { propertyName: name('property'), targetCrmProperty: name('CRM property'), dataType: dataTypeSchema },
} as const;

const v1Block = { type: 'object', additionalProperties: false, properties: { properties: { type: 'array', maxItems: 1000, items: v1MappingSchema } } } as const;

/** PUT /extensions/ecomm/v1/settings: a full replace, so a missing block is an empty one. */
export const v1SettingsSchema = {
  $id: 'v1-settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    importOnInstall: { type: 'boolean' },
    productSyncSettings: v1Block,
    dealSyncSettings: v1Block,
    lineItemSyncSettings: v1Block,
    contactSyncSettings: v1Block,
  },
} as const;

export type V1SettingsInput = Partial<Omit<V1Settings, 'productSyncSettings' | 'dealSyncSettings' | 'lineItemSyncSettings' | 'contactSyncSettings'>> &
  Partial<Record<(typeof V1_SETTINGS_BLOCKS)[ObjectType], { properties?: V1PropertyMapping[] }>>;

// ---- v2 wire ---------------------------------------------------------------------------------

export interface V2PropertyMapping {
  externalPropertyName: string;
  crmPropertyName: string;
  dataType?: DataType;
}

export interface V2Settings {
  enabled: boolean;
  webhookUri: string | null;
  mappings: Record<ObjectType, { properties: V2PropertyMapping[] }>;
}

export type V2SettingsInput = {
  enabled?: boolean;
  /** The v1 setting, accepted in v2 too (clients send one settings object to both); kept when left out. */
  importOnInstall?: boolean;
  webhookUri?: string | null;
  mappings?: Partial<Record<ObjectType, { properties?: V2PropertyMapping[] }>>;
};

const httpUri = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048, errorHint: 'must be an absolute http(s) URI' } as const;

export const v2SettingsSchema = {
  $id: 'v2-settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    importOnInstall: { type: 'boolean' },
    webhookUri: { anyOf: [httpUri, { type: 'null' }], errorHint: 'must be an absolute http(s) URI or null' },
    mappings: {
      type: 'object',
      additionalProperties: false,
      errorHint: `keys must be object types (${OBJECT_TYPES.join(', ')})`,
      properties: Object.fromEntries(
        OBJECT_TYPES.map((type) => [
          type,
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              properties: {
                type: 'array',
                maxItems: 1000,
                items: {
                  type: 'object',
                  required: ['externalPropertyName', 'crmPropertyName'],
                  additionalProperties: false,
                  properties: { externalPropertyName: name('property'), crmPropertyName: name('CRM property'), dataType: dataTypeSchema },
                },
              },
            },
          },
        ]),
      ),
    },
  },
} as const;

// ---- v1 import settings ----------------------------------------------------------------------

export interface V1ImportSettings {
  importTriggerUri: string | null;
}

export const v1ImportSettingsSchema = {
  $id: 'v1-import-settings',
  type: 'object',
  required: ['importTriggerUri'],
  additionalProperties: false,
  properties: { importTriggerUri: httpUri },
} as const;
