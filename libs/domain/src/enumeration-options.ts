/**
 * A CRM enumeration property as the dry run checks values against it: its options' values, and
 * whether it takes several (a checkbox: values joined by `;`).
 */
export interface EnumerationOptions {
  allowed: ReadonlySet<string>;
  multiple: boolean;
}

/** The enumerations among a portal's CRM properties, by name; one without options (a deal's stage and pipeline) takes any value. */
export function enumerationsOf(
  properties: readonly { name: string; type: string; fieldType?: string; options?: readonly { value: string }[] }[],
): Map<string, EnumerationOptions> {
  const found = new Map<string, EnumerationOptions>();
  for (const property of properties) {
    if (property.type !== 'enumeration' || !property.options?.length) continue;
    found.set(property.name, { allowed: new Set(property.options.map((option) => option.value)), multiple: property.fieldType === 'checkbox' });
  }
  return found;
}

/**
 * The properties whose value is not one of their enumeration's options, each with the first value
 * outside them: what the CRM refuses with INVALID_OPTION (the whole input, not just the property).
 * An empty value or null clears the property and is always taken.
 */
export function valuesOutsideOptions(
  properties: Readonly<Record<string, string | null>>,
  enumerations: ReadonlyMap<string, EnumerationOptions>,
): { name: string; value: string; outside: string }[] {
  const outsiders: { name: string; value: string; outside: string }[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const enumeration = enumerations.get(name);
    if (!enumeration || value === null || value === '') continue;
    const outside = (enumeration.multiple ? value.split(';') : [value]).find((one) => !enumeration.allowed.has(one));
    if (outside !== undefined) outsiders.push({ name, value, outside });
  }
  return outsiders;
}
