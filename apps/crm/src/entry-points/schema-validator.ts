import { createValidator } from '@ecomm-sync/contracts';
import type { JSONSchema } from 'json-schema-to-ts';

/**
 * Every body schema is closed: an object that names its properties accepts no other field, so a
 * caller can never slip a field (a `portalId`, say) past the schema into what is stored.
 * Maps of property values stay open by design (their `additionalProperties` is a value schema).
 */
export function closed<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => closed(item)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, closed(sub)])) : closed(value),
    ]),
  );
  if ('properties' in node && !('additionalProperties' in node)) node.additionalProperties = false;
  return node as T;
}

/** The validated body's type comes from the schema itself (decision 0030). */
export const validator = <const S extends JSONSchema>(schema: S) => createValidator(closed(schema));
