import { ownValue } from '@ecomm-sync/domain';

/**
 * How many values the CRM keeps per property of an object. The hosted CRM keeps far more; 20 is
 * enough for every client of the built-in CRM we know (the service reads the current value; a
 * history reader wants the last few changes), and it bounds what every write pushes and every
 * object document carries: a busy object's history cannot outgrow its document.
 */
export const HISTORY_LIMIT = 20;

/** Who set a value, as the hosted CRM's history names it: every write here comes through its public API. */
export const HISTORY_SOURCE = 'API';

/** One value a property held, as stored (oldest first, so that a capped `$push` drops the oldest). */
export interface HistoryEntry {
  value: string;
  timestamp: Date;
  sourceType: string;
}

/** An object's stored history: each property's values, oldest first, at most HISTORY_LIMIT. */
export type PropertyHistory = Record<string, HistoryEntry[]>;

/** The entry of a value written now; a cleared value (null) is the empty string, as the hosted CRM shows it. */
export const historyEntry = (value: string | null, timestamp: Date): HistoryEntry => ({ value: value ?? '', timestamp, sourceType: HISTORY_SOURCE });

/** The history a new object starts with: one entry per property it is created with a value for. */
export function initialHistory(properties: Record<string, string | null>, timestamp: Date): PropertyHistory {
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, value]) => value !== null)
      .map(([name, value]) => [name, [historyEntry(value, timestamp)]]),
  );
}

/** A value of the answer's `propertiesWithHistory` (the SDK's ValueWithTimestamp). */
export interface ValueWithTimestamp {
  value: string;
  timestamp: string;
  sourceType: string;
}

/**
 * The answer's `propertiesWithHistory` for the names asked: each newest first, by the order the
 * values were written (two writes in one millisecond keep their order); a name without history
 * answers an empty list.
 */
export function historyAnswer(stored: PropertyHistory | undefined, names: readonly string[]): Record<string, ValueWithTimestamp[]> {
  return Object.fromEntries(
    names.map((name) => {
      const entries = (stored && ownValue(stored, name)) ?? [];
      const newestFirst = [...entries].reverse().slice(0, HISTORY_LIMIT);
      return [name, newestFirst.map((entry) => ({ value: entry.value, timestamp: new Date(entry.timestamp).toISOString(), sourceType: entry.sourceType }))];
    }),
  );
}
