/** A number property's value as the hosted CRM takes it: digits, one optional leading minus, one optional point. */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The CRM's number properties among a type's properties, by name. */
export function numberPropertiesOf(properties: readonly { name: string; type: string }[]): Set<string> {
  return new Set(properties.filter((property) => property.type === 'number').map((property) => property.name));
}

/**
 * The values mapped to a number property that the CRM refuses (the whole input): an exponent, a
 * plus, spaces, a decimal comma. What a STRING mapping passes as sent; a NUMBER mapping's values
 * are written plain. An empty value or null clears the property.
 */
export function numbersNotPlain(properties: Readonly<Record<string, string | null>>, numbers: ReadonlySet<string>): { name: string; value: string }[] {
  return Object.entries(properties)
    .filter((entry): entry is [string, string] => numbers.has(entry[0]) && entry[1] !== null && entry[1] !== '' && !PLAIN_NUMBER.test(entry[1]))
    .map(([name, value]) => ({ name, value }));
}
