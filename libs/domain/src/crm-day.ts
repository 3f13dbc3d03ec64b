/** Days as a CRM account counts them: the daily cap resets at midnight in the account's time zone. */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) in the time zone; throws a RangeError for an unknown zone. */
export function localDay(now: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The first instant of the next day in the time zone: the next local midnight, or where a DST change
 * skips midnight, the first time that exists on that day. Found by bisection on the day's name, so
 * that no offset arithmetic can be wrong about a zone's rules.
 */
export function nextDailyReset(now: number, timeZone: string): number {
  const today = localDay(now, timeZone);
  let before = now;
  let after = now + 26 * 3_600_000; // local days last at most 25 hours
  while (localDay(after, timeZone) === today) after += 3_600_000;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localDay(middle, timeZone) === today) before = middle;
    else after = middle;
  }
  return after;
}
