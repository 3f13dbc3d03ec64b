/** A day as ISO 8601 text (`2024-05-01`): what the hosted CRM takes for a date property besides epoch milliseconds. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A UTC date-time as ISO 8601 text (`2024-05-01T12:30:00.000Z`, seconds and fraction optional): what it takes for a date-time. */
const ISO_UTC_DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?Z$/;

/**
 * The epoch milliseconds (as text) of a date or date-time property's value written as ISO 8601, as
 * the hosted CRM reads it ("the APIs will accept either of two formats", its FAQ on dates and times:
 * `YYYY-MM-DD` for a date, `YYYY-MM-DDThh:mm:ss.sZ` for a date-time, always in UTC); null when the
 * text is neither, or names no real day or time (`2024-02-30`, `25:00`). A fraction finer than a
 * millisecond is cut to the millisecond.
 */
export function isoDateMillis(type: 'date' | 'datetime', text: string): string | null {
  if (type === 'date') {
    if (!ISO_DAY.test(text)) return null;
    return exactly(`${text}T00:00:00.000Z`);
  }
  const parts = ISO_UTC_DATE_TIME.exec(text);
  if (!parts) return null;
  const [, minute, second = '00', fraction = ''] = parts;
  return exactly(`${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}Z`);
}

/** The milliseconds of a complete ISO date-time, when it reads back the same (no day or hour rolled over). */
function exactly(iso: string): string | null {
  const millis = Date.parse(iso);
  if (Number.isNaN(millis) || new Date(millis).toISOString() !== iso) return null;
  return String(millis);
}
