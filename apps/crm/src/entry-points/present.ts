import { ownValue } from '@ecomm-sync/domain';
import type { StoredObject } from '../data-access/crm-store';
import type { PropertyDefinition } from '../domain/object-types';
import { historyAnswer } from '../domain/property-history';

/** The answers' shapes: the hosted CRM's SimplePublicObject and Property, with the fields its clients read. */

/** A stored record's own value: names in queries are any strings (`constructor` must not find Object.prototype's). */
const own = <T>(record: Record<string, T> | undefined, name: string): T | undefined => (record ? ownValue(record, name) : undefined);

export function present(object: StoredObject, properties?: string[], associations?: string[], propertiesWithHistory?: string[]) {
  const shown =
    properties && properties.length > 0 ? Object.fromEntries(properties.map((name) => [name, own(object.properties, name) ?? null])) : object.properties;
  const result: Record<string, unknown> = {
    id: String(object.id),
    properties: shown,
    createdAt: new Date(object.createdAt).toISOString(),
    updatedAt: new Date(object.updatedAt).toISOString(),
    archived: false,
  };
  // Each asked property's values, newest first (the SDK's ValueWithTimestamp); the object must be read withHistory.
  if (propertiesWithHistory && propertiesWithHistory.length > 0) result.propertiesWithHistory = historyAnswer(object.history, propertiesWithHistory);
  if (associations && associations.length > 0) {
    result.associations = Object.fromEntries(
      associations.map((type) => [type, { results: (own(object.associations, type) ?? []).map((id) => ({ id: String(id), type: 'default' })) }]),
    );
  }
  return result;
}

/** A property as the hosted CRM lists it (the SDK's Property). */
export const presentProperty = (property: PropertyDefinition) => ({
  name: property.name,
  label: property.label,
  type: property.type,
  fieldType: property.fieldType,
  groupName: property.groupName,
  description: '',
  options: property.options,
  displayOrder: -1,
  hasUniqueValue: property.hasUniqueValue,
  hidden: false,
  formField: false,
  calculated: false,
  externalOptions: false,
  archived: false,
});
