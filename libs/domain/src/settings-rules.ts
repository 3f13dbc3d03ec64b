import {
  OBJECT_TYPES,
  type ObjectType,
  type PropertyMapping,
  type SyncSettings,
  V1_ASSOCIATION_PROPERTIES,
  V1_SETTINGS_BLOCKS,
  type V1PropertyMapping,
  type V1Settings,
  type V1SettingsInput,
  type V2Settings,
  type V2SettingsInput,
} from '@ecomm-sync/contracts';
import { ECOMM_SYNCED_PROPERTY } from './ecommerce-setup';

export type ApiVersion = 'v1' | 'v2';

/** What a settings write stores (both API generations write the same settings). */
export interface SettingsRecord extends SyncSettings {
  importOnInstall: boolean;
  webhookUri: string | null;
}

/**
 * Mappings whose targets must exist before settings can be enabled (SPEC.md "Required
 * properties"). v2 line items carry their deal and product in `associations`, so v2 needs none.
 */
export const REQUIRED_MAPPINGS: Record<ApiVersion, Partial<Record<ObjectType, string[]>>> = {
  v1: {
    CONTACT: ['email'],
    DEAL: ['dealstage'],
    LINE_ITEM: [V1_ASSOCIATION_PROPERTIES.DEAL_ID, V1_ASSOCIATION_PROPERTIES.PRODUCT_ID],
  },
  v2: { CONTACT: ['email'], DEAL: ['dealstage'] },
};

const identity = (name: string): PropertyMapping => ({ externalPropertyName: name, crmPropertyName: name, dataType: 'STRING' });

/**
 * Mappings the service provides and no one edits: the synced flag it sets on every object, and in
 * v1 the association properties under their own names. Shown only on request.
 */
export const PROVIDED_MAPPINGS: Record<ApiVersion, Record<ObjectType, PropertyMapping[]>> = {
  v1: {
    CONTACT: [identity(ECOMM_SYNCED_PROPERTY)],
    PRODUCT: [identity(ECOMM_SYNCED_PROPERTY)],
    DEAL: [identity(ECOMM_SYNCED_PROPERTY), identity(V1_ASSOCIATION_PROPERTIES.CONTACT_IDS)],
    LINE_ITEM: [identity(ECOMM_SYNCED_PROPERTY), identity(V1_ASSOCIATION_PROPERTIES.DEAL_ID), identity(V1_ASSOCIATION_PROPERTIES.PRODUCT_ID)],
  },
  v2: {
    CONTACT: [identity(ECOMM_SYNCED_PROPERTY)],
    PRODUCT: [identity(ECOMM_SYNCED_PROPERTY)],
    DEAL: [identity(ECOMM_SYNCED_PROPERTY)],
    LINE_ITEM: [identity(ECOMM_SYNCED_PROPERTY)],
  },
};

const sameMapping = (a: PropertyMapping, b: PropertyMapping) => a.externalPropertyName === b.externalPropertyName && a.crmPropertyName === b.crmPropertyName;

const isProvided = (version: ApiVersion, type: ObjectType, mapping: PropertyMapping) =>
  PROVIDED_MAPPINGS[version][type].some((provided) => sameMapping(provided, mapping));

/**
 * Provided mappings a PUT leaves out of the stored settings: the synced flag, which the service
 * always sets. A v1 association property mapped under its own name is kept as sent: it is the
 * sender's statement of how it sends associations, and it satisfies the enabling rule.
 */
const isDropped = (version: ApiVersion, type: ObjectType, mapping: PropertyMapping) =>
  isProvided(version, type, mapping) && mapping.crmPropertyName === ECOMM_SYNCED_PROPERTY;

/** The provided mappings to show with the stored ones (each once). */
const withProvided = (version: ApiVersion, type: ObjectType, stored: PropertyMapping[]) => [
  ...PROVIDED_MAPPINGS[version][type].filter((provided) => !stored.some((mapping) => sameMapping(mapping, provided))),
  ...stored,
];

/**
 * Why settings cannot be stored, in a sentence that says what to fix, or null when they can.
 * A mapping never creates a CRM property; whether the property exists is checked when messages apply.
 */
export function settingsProblem(settings: SyncSettings, version: ApiVersion): string | null {
  const block = (type: ObjectType) => (version === 'v1' ? V1_SETTINGS_BLOCKS[type] : `mappings.${type}`);
  for (const type of OBJECT_TYPES) {
    const mappings = settings.mappings[type] ?? [];
    const seen = new Set<string>();
    for (const mapping of mappings) {
      if (seen.has(mapping.externalPropertyName)) {
        return `${block(type)} maps the property "${mapping.externalPropertyName}" twice; keep one mapping per property`;
      }
      seen.add(mapping.externalPropertyName);
    }
    const avatars = mappings.filter((mapping) => mapping.dataType === 'AVATAR_IMAGE');
    if (avatars.length > 0 && type !== 'PRODUCT') {
      return `${block(type)} has an AVATAR_IMAGE mapping ("${avatars[0].externalPropertyName}"); AVATAR_IMAGE is only for PRODUCT`;
    }
    if (avatars.length > 1) {
      return `${block(type)} has ${avatars.length} AVATAR_IMAGE mappings; only one is allowed per object type`;
    }
  }
  if (settings.enabled) {
    for (const [type, required] of Object.entries(REQUIRED_MAPPINGS[version]) as [ObjectType, string[]][]) {
      const targets = new Set((settings.mappings[type] ?? []).map((mapping) => mapping.crmPropertyName));
      const missing = required.filter((name) => !targets.has(name));
      if (missing.length > 0) {
        return `Settings cannot be enabled: ${block(type)} must map a property to ${missing.join(' and ')}`;
      }
    }
  }
  return null;
}

/** Object types whose stored objects must be re-mapped after a settings change. */
export function objectTypesToReapply(before: SyncSettings | null, after: SyncSettings): ObjectType[] {
  if (!after.enabled) return []; // paused: nothing applies; the re-map happens when enabled again
  if (!before || !before.enabled) return [...OBJECT_TYPES];
  const key = (mappings: PropertyMapping[] = []) => JSON.stringify(mappings.map((m) => [m.externalPropertyName, m.crmPropertyName, m.dataType]).sort());
  return OBJECT_TYPES.filter((type) => key(before.mappings[type]) !== key(after.mappings[type]));
}

/**
 * The object types a new re-apply job goes through: its own, and those the running jobs it
 * supersedes had not finished (from the type each was on), in the order of OBJECT_TYPES.
 */
export function typesToReapply(own: readonly ObjectType[], superseded: readonly { objectTypes: readonly ObjectType[]; typeIndex: number }[]): ObjectType[] {
  const wanted = new Set([...own, ...superseded.flatMap((job) => job.objectTypes.slice(job.typeIndex))]);
  return OBJECT_TYPES.filter((type) => wanted.has(type));
}

// ---- v1 view ---------------------------------------------------------------------------------

/**
 * What a GET answers before any PUT (and after a DELETE), in either version: every field, so that an
 * owner with none reads as disabled, with no mappings (docs/api.md). Nothing is stored by reading.
 */
export const SETTINGS_BEFORE_ANY_PUT: SettingsRecord = Object.freeze({ enabled: false, importOnInstall: false, webhookUri: null, mappings: Object.freeze({}) });

const toV1Mapping = (mapping: PropertyMapping): V1PropertyMapping => ({
  propertyName: mapping.externalPropertyName,
  targetCrmProperty: mapping.crmPropertyName,
  dataType: mapping.dataType,
});

export function toV1Settings(settings: SettingsRecord, showProvided: boolean): V1Settings {
  const block = (type: ObjectType) => ({
    properties: (showProvided ? withProvided('v1', type, settings.mappings[type] ?? []) : (settings.mappings[type] ?? [])).map(toV1Mapping),
  });
  return {
    enabled: settings.enabled,
    importOnInstall: settings.importOnInstall,
    productSyncSettings: block('PRODUCT'),
    dealSyncSettings: block('DEAL'),
    lineItemSyncSettings: block('LINE_ITEM'),
    contactSyncSettings: block('CONTACT'),
  };
}

/**
 * A mapping sent twice, byte for byte, is one mapping (clients build settings by appending); the
 * same sender property mapped two ways stays for settingsProblem to refuse.
 */
function withoutRepeats(mappings: PropertyMapping[]): PropertyMapping[] {
  const seen = new Set<string>();
  return mappings.filter((mapping) => {
    const key = JSON.stringify([mapping.externalPropertyName, mapping.crmPropertyName, mapping.dataType]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A v1 PUT is a full replace: what it leaves out is cleared; the import trigger URI is kept (its own resource). */
export function fromV1Settings(input: V1SettingsInput, current: SettingsRecord | null): SettingsRecord {
  const mappings: SettingsRecord['mappings'] = {};
  for (const type of OBJECT_TYPES) {
    mappings[type] = withoutRepeats(
      (input[V1_SETTINGS_BLOCKS[type]]?.properties ?? [])
        .map((m): PropertyMapping => ({ externalPropertyName: m.propertyName, crmPropertyName: m.targetCrmProperty, dataType: m.dataType }))
        .filter((mapping) => !isDropped('v1', type, mapping)),
    );
  }
  return { enabled: input.enabled ?? false, importOnInstall: input.importOnInstall ?? false, webhookUri: current?.webhookUri ?? null, mappings };
}

// ---- v2 view ---------------------------------------------------------------------------------

export function toV2Settings(settings: SettingsRecord, showProvided: boolean): V2Settings {
  const mappings = Object.fromEntries(
    OBJECT_TYPES.map((type) => [
      type,
      { properties: showProvided ? withProvided('v2', type, settings.mappings[type] ?? []) : (settings.mappings[type] ?? []) },
    ]),
  ) as V2Settings['mappings'];
  return { enabled: settings.enabled, webhookUri: settings.webhookUri, mappings };
}

/**
 * A v2 PUT is a full replace: mappings left out are removed. importOnInstall (a v1 setting that
 * clients also send to v2) is taken when given and kept when left out.
 */
export function fromV2Settings(input: V2SettingsInput, current: SettingsRecord | null): SettingsRecord {
  const mappings: SettingsRecord['mappings'] = {};
  for (const type of OBJECT_TYPES) {
    mappings[type] = withoutRepeats(
      (input.mappings?.[type]?.properties ?? [])
        .map((m): PropertyMapping => ({ externalPropertyName: m.externalPropertyName, crmPropertyName: m.crmPropertyName, dataType: m.dataType ?? 'STRING' }))
        .filter((mapping) => !isDropped('v2', type, mapping)),
    );
  }
  return {
    enabled: input.enabled ?? false,
    importOnInstall: input.importOnInstall ?? current?.importOnInstall ?? false,
    webhookUri: input.webhookUri ?? null,
    mappings,
  };
}
