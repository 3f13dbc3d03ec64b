import type { ObjectType } from '@ecomm-sync/contracts';

/**
 * A CRM enumeration property as the dry run checks values against it: its options' values, and
 * whether it takes several (a checkbox: values joined by `;`).
 */
export interface EnumerationOptions {
  allowed: ReadonlySet<string>;
  multiple: boolean;
}

/**
 * Enumerations whose values the service translates on the way to the CRM: a deal's stage and
 * pipeline are sent as SPEC.md's names and written as the portal's ids (crm-client deal-stages), so
 * the CRM's options (its ids) are not what the mapped value is.
 */
const TRANSLATED: Partial<Record<ObjectType, readonly string[]>> = { DEAL: ['dealstage', 'pipeline'] };

/** The enumerations among a portal's CRM properties of a type, by name; one without options takes any value. */
export function enumerationsOf(
  objectType: ObjectType,
  properties: readonly { name: string; type: string; fieldType?: string; options?: readonly { value: string }[] }[],
): Map<string, EnumerationOptions> {
  const found = new Map<string, EnumerationOptions>();
  for (const property of properties) {
    if (property.type !== 'enumeration' || !property.options?.length || TRANSLATED[objectType]?.includes(property.name)) continue;
    found.set(property.name, { allowed: new Set(property.options.map((option) => option.value)), multiple: property.fieldType === 'checkbox' });
  }
  return found;
}

/**
 * The properties whose value is not one of their enumeration's options, each with the first value
 * outside them: what the CRM refuses with INVALID_OPTION (the whole input, not just the property).
 * An empty value or null clears the property and is always taken; a checkbox's empty parts
 * (`;red`, which the hosted CRM reads as adding to what is set, or `a;;b`) are not values.
 */
export function valuesOutsideOptions(
  properties: Readonly<Record<string, string | null>>,
  enumerations: ReadonlyMap<string, EnumerationOptions>,
): { name: string; value: string; outside: string }[] {
  const outsiders: { name: string; value: string; outside: string }[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const enumeration = enumerations.get(name);
    if (!enumeration || value === null || value === '') continue;
    const values = enumeration.multiple ? value.split(';').filter((one) => one !== '') : [value];
    const outside = values.find((one) => !enumeration.allowed.has(one));
    if (outside !== undefined) outsiders.push({ name, value, outside });
  }
  return outsiders;
}
