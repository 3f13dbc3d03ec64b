/** A day as ISO 8601 text (`2024-05-01`): what the hosted CRM takes for a date property besides epoch milliseconds. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A date-time as ISO 8601 text with its time zone designator (`2024-05-01T12:30:00.000Z`, or
 * `+01:00` for `Z`; seconds and fraction optional): what it takes for a date-time.
 */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * The epoch milliseconds (as text) of a date or date-time property's value written as ISO 8601, as
 * the hosted CRM reads it ("the APIs will accept either of two formats", its FAQ on dates and times:
 * `YYYY-MM-DD` for a date, `YYYY-MM-DDThh:mm:ss.sTZD` for a date-time, TZD being `Z` or an offset
 * from UTC); null when the text is neither, or names no real day or time (`2024-02-30`, `25:00`,
 * an offset beyond 18 hours). A fraction finer than a millisecond is cut to the millisecond.
 */
export function isoDateMillis(type: 'date' | 'datetime', text: string): string | null {
  if (type === 'date') {
    if (!ISO_DAY.test(text)) return null;
    return exactly(`${text}T00:00:00.000Z`, 0);
  }
  const parts = ISO_DATE_TIME.exec(text);
  if (!parts) return null;
  const [, minute, second = '00', fraction = '', sign, offsetHours = '00', offsetMinutes = '00'] = parts;
  // At most 18 hours either way, as Java's ZoneOffset (the hosted CRM's platform) reads one.
  if (Number(offsetHours) * 60 + Number(offsetMinutes) > 18 * 60 || Number(offsetMinutes) > 59) return null;
  const offsetMs = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return exactly(`${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}Z`, offsetMs);
}

/**
 * The milliseconds of a date-time written in local time `offsetMs` ahead of UTC, when its local
 * reading is a real one (read as UTC, it reads back the same: no day or hour rolled over).
 */
function exactly(local: string, offsetMs: number): string | null {
  const millis = Date.parse(local);
  if (Number.isNaN(millis) || new Date(millis).toISOString() !== local) return null;
  return String(millis - offsetMs);
}
