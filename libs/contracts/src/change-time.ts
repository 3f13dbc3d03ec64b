/**
 * Epoch milliseconds as a number, fractions of a millisecond included (a Python client's
 * `time.time() * 1000`): up to the largest time a Date holds; toEpochMillis drops the fraction, so
 * two changes within one millisecond tie, and the newest-wins rule settles a tie by the values
 * (decision 19, addendum).
 */
const millisNumberSchema = { type: 'number', minimum: 0, maximum: 8640000000000000 } as const;

/** Epoch milliseconds as a numeric string, up to the largest time a Date holds (8.64e15), a fraction of a millisecond allowed below it. */
const NUMERIC_MILLIS = '^(?:(?:[0-9]{1,15}|[0-7][0-9]{15}|8[0-5][0-9]{14}|86[0-3][0-9]{13})(?:\\.[0-9]+)?|8640000000000000)$';

/**
 * When a change occurred, as senders send it (v1 `changeOccurredTimestamp`, v2 `changedAt`):
 * epoch milliseconds as a number or a numeric string, or an ISO 8601 date-time with a time zone,
 * as the original v1 OpenAPI typed it (docs/decisions/0019-change-times-as-sent.md); or null, taken
 * as left out: the time of receipt (decision 0060).
 */
export const changeTimeSchema = {
  anyOf: [millisNumberSchema, { type: 'string', pattern: NUMERIC_MILLIS }, { type: 'string', maxLength: 64, format: 'date-time' }, { type: 'null' }],
  errorHint:
    'must be epoch milliseconds (a number or a numeric string) or an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z (or null, the same as leaving it out)',
} as const;

const NUMERIC_MILLIS_PATTERN = new RegExp(NUMERIC_MILLIS);

/**
 * A change time that passed changeTimeSchema, in whole epoch milliseconds; NaN if a date-time is
 * out of range. A numeric string's fraction is cut off as text: Number() of the whole string would
 * round `…0.99999999` up to the next millisecond first (the integer part, at most 8.64e15, is exact).
 */
export function toEpochMillis(value: number | string): number {
  if (typeof value === 'number') return Math.floor(value);
  if (!NUMERIC_MILLIS_PATTERN.test(value)) return dateTimeMillis(value);
  const point = value.indexOf('.');
  return Number(point === -1 ? value : value.slice(0, point));
}

/**
 * A date-time the schema's format took, in epoch milliseconds. The format takes two forms Date.parse
 * does not: an offset of hours only (`+05`, read as `+05:00`) and a leap second (`23:59:60`, read as
 * the last millisecond before it, `23:59:59.999`, as a Date holds no leap second).
 */
function dateTimeMillis(value: string): number {
  const withMinutes = value.replace(/([+-]\d\d)$/, '$1:00');
  const leap = /^(.*[T ]\d\d:\d\d:)60(?:\.\d+)?(.*)$/i.exec(withMinutes);
  return Date.parse(leap ? `${leap[1]}59.999${leap[2]}` : withMinutes);
}
