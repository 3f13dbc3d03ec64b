import type { JSONSchema } from 'json-schema-to-ts';

// Pieces the request schemas of the objects and the associations APIs share.

/** An object id: digits, as a string or a number. */
export const idSchema = {
  anyOf: [
    { type: 'string', pattern: '^[0-9]{1,15}$' },
    { type: 'integer', minimum: 1 },
  ],
} as const;

/** The inputs of a batch: 1 to 100. */
export const inputs = <const I extends JSONSchema>(item: I) =>
  ({ type: 'array', minItems: 1, maxItems: 100, items: item, errorHint: 'must hold 1 to 100 inputs' }) as const;
