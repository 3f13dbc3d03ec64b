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

/**
 * Why an object's message was set aside in a dead-letter queue, and how it gets applied after
 * all: the error record a user sees for it (nothing accepted sits in a dead-letter queue unseen).
 */
export function setAsideReason(queue: string, attempts: number, lastError: string): string {
  return `processing failed ${attempts} time${attempts === 1 ? '' : 's'} (last: ${lastError.slice(0, 300)}); the message is kept in the dead-letter queue of ${queue} and applied once an operator runs: npm run redrive -- ${queue}`;
}
