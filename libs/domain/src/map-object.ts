import {
  type MappedChange,
  type ObjectType,
  type Problem,
  type PropertyMapping,
  type PropertyValue,
  type SyncSettings,
  MAX_OBJECT_ID_LENGTH,
  V1_ASSOCIATION_PROPERTIES,
} from '@ecomm-sync/contracts';
import { convertValue } from './convert-value';
import { describeFailure } from './error-details';
import type { RawObjectState } from './object-state';
import { generationOf, isLive, newestChangeOf } from './object-state';
import { setOwn } from './own-record';

export type MappedObject = Omit<MappedChange, 'externalObjectId' | 'rev'>;

/** A Map: CRM property names come from settings, and `toString` must not find Object.prototype's. */
const ASSOCIATION_TARGETS = new Map<string, ObjectType>([
  [V1_ASSOCIATION_PROPERTIES.CONTACT_IDS, 'CONTACT'],
  [V1_ASSOCIATION_PROPERTIES.DEAL_ID, 'DEAL'],
  [V1_ASSOCIATION_PROPERTIES.PRODUCT_ID, 'PRODUCT'],
]);

export const isAssociationProperty = (crmPropertyName: string): boolean => ASSOCIATION_TARGETS.has(crmPropertyName);

function splitIds(value: string): string[] {
  return value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
}

/** The most ids one association type may name (the mapped change's schema holds it to this). */
export const MAX_ASSOCIATED_IDS = 1000;

/** An external id as every message holds it: 1 to 100 ASCII characters. */
const isExternalId = (id: string): boolean => id.length <= MAX_OBJECT_ID_LENGTH && /^[\x00-\x7F]+$/.test(id);

/** A value shown in an error's details, cut short (an id property may hold 65,536 characters). */
const shown = (value: string): string => (value.length > MAX_OBJECT_ID_LENGTH ? `${value.slice(0, MAX_OBJECT_ID_LENGTH)}…` : value);

/**
 * Maps an object's merged raw state to CRM property names with the settings in force.
 * Unmapped sender properties are left out (they stay stored and apply once a mapping names them).
 */
export function mapObject(
  objectType: ObjectType,
  externalObjectId: string,
  state: RawObjectState,
  settings: (SyncSettings & { rev?: number }) | null,
): MappedObject {
  const live = isLive(state);
  const base = {
    action: live ? ('UPSERT' as const) : ('DELETE' as const),
    changedAt: newestChangeOf(state),
    settingsRev: settings?.rev ?? 0,
    generation: generationOf(state),
  };
  const blocked = (problem: Omit<Problem, 'blocking'>): MappedObject => ({
    ...base,
    properties: {},
    associations: {},
    problems: [{ ...problem, blocking: true }],
  });
  const operation = live ? 'UPSERT' : 'DELETE';
  if (!settings) {
    return blocked({
      type: 'NO_SYNC_SETTINGS',
      details: describeFailure(operation, objectType, externalObjectId, 'no sync settings exist; PUT settings with mappings, then enable them'),
    });
  }
  if (!settings.enabled) {
    return blocked({
      type: 'SETTINGS_NOT_ENABLED',
      details: describeFailure(operation, objectType, externalObjectId, 'sync settings exist but are not enabled'),
    });
  }
  if (!live) return { ...base, properties: {}, associations: {}, problems: [] };

  const problems: Problem[] = [];
  const properties: Record<string, string | null> = {};
  const associations: MappedObject['associations'] = {};
  const mappings = settings.mappings[objectType] ?? [];
  // v1 association properties sent under their own names need no mapping (provided mappings).
  const byExternalName = new Map<string, { crmPropertyName: string; dataType: PropertyMapping['dataType'] }>(
    [...ASSOCIATION_TARGETS.keys()].map((name) => [name, { crmPropertyName: name, dataType: 'STRING' }]),
  );
  for (const mapping of mappings) byExternalName.set(mapping.externalPropertyName, mapping);
  let mappedCount = 0;

  // Two sender properties mapped to one CRM property: the value changed last wins (at the same
  // time a value over a clear, then the greater sender name), whatever order the messages came in.
  const winners = new Map<
    string,
    { name: string; value: PropertyValue; changedAt: number; mapping: { crmPropertyName: string; dataType: PropertyMapping['dataType'] } }
  >();
  for (const [name, { value, changedAt }] of Object.entries(state.properties)) {
    const mapping = byExternalName.get(name);
    if (!mapping) continue;
    mappedCount++;
    const current = winners.get(mapping.crmPropertyName);
    const tie = current && changedAt === current.changedAt;
    const winsTie = tie && (current.value === null ? value !== null || name > current.name : value !== null && name > current.name);
    if (!current || changedAt > current.changedAt || winsTie) {
      winners.set(mapping.crmPropertyName, { name, value, changedAt, mapping });
    }
  }
  /** When each association was last set by a v1 property (SPEC.md: the most recent change wins over a v2 map's too). */
  const v1AssociationAt = new Map<ObjectType, number>();
  for (const { value, changedAt, mapping } of winners.values()) {
    const associated = ASSOCIATION_TARGETS.get(mapping.crmPropertyName);
    if (associated) {
      v1AssociationAt.set(associated, changedAt);
      // Only a deal's contacts come as a list (SPEC.md, "Associations"); a line item's deal and
      // product are one id each, which may itself hold a comma (spaces around it go, as in the list).
      // An id no message could carry (over 100 characters, not ASCII) names no object: a deal's
      // contacts go without it, as invalid contact associations do (SPEC.md); a line item's deal or
      // product is an INVALID_ASSOCIATION_PROPERTY of this object only, never a mapped change the
      // applier could not read.
      const text = value === null ? '' : String(value).trim();
      if (text === '') continue;
      if (associated === 'CONTACT') {
        associations.CONTACT = splitIds(text).filter(isExternalId).slice(0, MAX_ASSOCIATED_IDS);
      } else if (isExternalId(text)) {
        associations[associated] = [text];
      } else {
        problems.push({
          type: 'INVALID_ASSOCIATION_PROPERTY',
          blocking: false,
          details: describeFailure('UPSERT', objectType, externalObjectId, `not an external id (1 to ${MAX_OBJECT_ID_LENGTH} ASCII characters)`, {
            [mapping.crmPropertyName]: shown(text),
          }),
        });
      }
      continue;
    }
    const conversion = convertValue(value, mapping.dataType);
    if (conversion.ok) {
      setOwn(properties, mapping.crmPropertyName, conversion.value);
    } else {
      problems.push({
        type: conversion.errorType,
        blocking: false,
        details: describeFailure('UPSERT', objectType, externalObjectId, conversion.reason, { [mapping.crmPropertyName]: value }),
      });
    }
  }
  for (const [type, entry] of Object.entries(state.associations) as [ObjectType, { value: string[]; changedAt: number }][]) {
    if ((v1AssociationAt.get(type) ?? -Infinity) > entry.changedAt) continue;
    associations[type] = entry.value;
  }

  const propertyCount = Object.keys(state.properties).length;
  if (propertyCount > 0 && mappedCount === 0) {
    return blocked({
      type: 'NO_MAPPINGS_DEFINED',
      details: describeFailure(
        'UPSERT',
        objectType,
        externalObjectId,
        `settings map none of the properties sent (${Object.keys(state.properties).slice(0, 10).join(', ')})`,
      ),
    });
  }
  return { ...base, properties, associations, problems };
}
