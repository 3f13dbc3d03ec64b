/**
 * Records keyed by names that senders and settings choose (property names): a name such as
 * `constructor`, `toString` or `__proto__` must be an ordinary key, never an Object.prototype
 * member read by mistake, nor a prototype set by assignment.
 */

/** The record's own value for `key`, or undefined (never an inherited member). */
export const ownValue = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/** Sets `key` as an own, enumerable property (`__proto__` included). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
