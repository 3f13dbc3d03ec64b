const DAY_MS = 86_400_000n;

/** The CRM's date properties (a day, no time) among a type's properties, by name. */
export function datePropertiesOf(properties: readonly { name: string; type: string }[]): Set<string> {
  return new Set(properties.filter((property) => property.type === 'date').map((property) => property.name));
}

/**
 * The values mapped to a date property that are not midnight UTC: what the CRM refuses (its
 * INVALID_DATE, the whole input). An empty value or null clears the property; a value that is not
 * epoch milliseconds is the conversion's problem, not this one's.
 */
export function datesOffMidnight(properties: Readonly<Record<string, string | null>>, dates: ReadonlySet<string>): { name: string; value: string }[] {
  const off: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(properties)) {
    if (!dates.has(name) || value === null || !/^-?\d{1,16}$/.test(value)) continue;
    if (BigInt(value) % DAY_MS !== 0n) off.push({ name, value }); // exact: a double rounds 16 digits
  }
  return off;
}
