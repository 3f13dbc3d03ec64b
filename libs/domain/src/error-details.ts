import type { ObjectType, PropertyValue } from '@ecomm-sync/contracts';

export type Operation = 'CREATE' | 'UPDATE' | 'UPSERT' | 'DELETE';

/**
 * The `details` of an error record: operation, object, reason, and each property with its
 * value in brackets, as `[name: value]`, which field clients parse (vendor-api-notes.md).
 */
export function describeFailure(
  operation: Operation,
  objectType: ObjectType,
  externalObjectId: string,
  reason: string,
  values: Record<string, PropertyValue | undefined> = {},
): string {
  const bracketed = Object.entries(values)
    .map(([name, value]) => ` [${name}: ${value === undefined ? '(missing)' : String(value)}]`)
    .join('');
  return `Error performing[${operation}] ${objectType}[${externalObjectId}]: ${reason}${bracketed}`;
}
