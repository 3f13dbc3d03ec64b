import type { Action, ErrorType, ObjectType, PropertyValue } from '@ecomm-sync/contracts';

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
function setAsideReason(queue: string, attempts: number, lastError: string): string {
  return `processing failed ${attempts} time${attempts === 1 ? '' : 's'} (last: ${lastError.slice(0, 300)}); the message is kept in the dead-letter queue of ${queue} and applied once an operator runs: npm run redrive -- ${queue}`;
}

/** The error records of the objects of a message set aside in a dead-letter queue (one per object). */
export function setAsideErrors(
  objectType: ObjectType,
  objects: readonly { externalObjectId: string; action: Action; rev: number; settingsRev: number; changedAt: number }[],
  set: { queue: string; attempts: number; lastError: string; at: number },
): { externalObjectId: string; rev: number; settingsRev: number; type: ErrorType; details: string; changedAt: number; erroredAt: number }[] {
  const reason = setAsideReason(set.queue, set.attempts, set.lastError);
  return objects.map(({ externalObjectId, action, rev, settingsRev, changedAt }) => ({
    externalObjectId,
    rev,
    settingsRev,
    type: 'UNKNOWN_ERROR' as const,
    details: describeFailure(action === 'DELETE' ? 'DELETE' : 'UPSERT', objectType, externalObjectId, reason),
    changedAt,
    erroredAt: set.at,
  }));
}
