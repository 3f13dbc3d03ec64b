import type { DataType, ErrorType, PropertyValue } from '@ecomm-sync/contracts';

export type Conversion = { ok: true; value: string | null } | { ok: false; errorType: ErrorType; reason: string };

// Linear: each digit run has one way to match (the fraction needs its dot), so a long digit string
// that fails at its end is not tried again at every split (docs/security.md, finding 2).
const NUMERIC = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?\d{1,16}$/;

/** The furthest a date reaches from 1970, either way, in milliseconds (what a JavaScript Date holds: year 275760). */
const MAX_DATE_MILLIS = 8_640_000_000_000_000;

const fail = (errorType: ErrorType, reason: string): Conversion => ({ ok: false, errorType, reason });

/**
 * Converts a sender's value to the CRM's string form by the mapping's data type (DESIGN.md, Values).
 * Null clears the property whatever the type; so does an empty string for a NUMBER or DATETIME
 * (senders send "" for "no value"). The CRM adapter sends a clear as "", the hosted CRM's clear
 * (decision 42, addendum of 2026-12-06).
 */
export function convertValue(value: PropertyValue, dataType: DataType): Conversion {
  if (value === null) return { ok: true, value: null };
  if (value === '' && (dataType === 'NUMBER' || dataType === 'DATETIME')) return { ok: true, value: null };
  switch (dataType) {
    case 'STRING':
      // A JSON number as its digits, never with an exponent (a text mapping may feed a CRM number property).
      return { ok: true, value: typeof value === 'number' ? plainDecimal(value) : String(value) };
    case 'NUMBER': {
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value: plainDecimal(value) };
      if (typeof value === 'string' && NUMERIC.test(value.trim())) return numericString(value.trim());
      return fail('UNKNOWN_ERROR', 'INVALID_NUMBER: expected a finite number or a numeric string');
    }
    case 'DATETIME': {
      const millis = typeof value === 'number' ? value : typeof value === 'string' && INTEGER.test(value.trim()) ? Number(value.trim()) : NaN;
      if (Number.isInteger(millis) && Math.abs(millis) > MAX_DATE_MILLIS)
        return fail('ERROR_INVALID_DATE_PROPERTY', `INVALID_DATE: ${millis} epoch milliseconds is beyond any date (at most ${MAX_DATE_MILLIS} either way)`);
      if (Number.isInteger(millis)) return { ok: true, value: String(millis) };
      const hint = typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? `; send ${Date.parse(value)} instead` : '';
      return fail('ERROR_INVALID_DATE_PROPERTY', `INVALID_DATE: expected epoch milliseconds as a number or numeric string${hint}`);
    }
    case 'AVATAR_IMAGE': {
      if (typeof value === 'string' && isHttpUrl(value)) return { ok: true, value };
      return fail('UNKNOWN_ERROR', 'INVALID_IMAGE_URL: expected an absolute http(s) URL');
    }
  }
}

/** Digits beyond this many may not survive a double: a plain number (digits, a point) this long keeps its digits as sent. */
const EXACT_DIGITS = 15;

/**
 * A numeric string in its plain form: a whole number or a decimal written without an exponent, of
 * more digits than a double holds, keeps them all (a 20-digit order number, `0.12345678901234567` stay themselves, without
 * leading or trailing zeros); one beyond a double's range ("1e400") is refused here, per property,
 * rather than sent as "Infinity" for the CRM to refuse the whole object.
 */
function numericString(text: string): Conversion {
  const number = Number(text);
  if (!Number.isFinite(number)) return fail('UNKNOWN_ERROR', 'INVALID_NUMBER: the number is beyond what a CRM number property holds');
  const plain = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (plain) {
    const [, sign, whole, fraction = ''] = plain;
    const integer = whole!.replace(/^0+/, '');
    // Trailing zeros cut by a loop: `/0+$/` would try again from each zero of a long run before a last digit (quadratic).
    let end = fraction.length;
    while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
    const decimals = fraction.slice(0, end);
    const significant = (integer + decimals).replace(/^0+/, '');
    if (significant.length > EXACT_DIGITS) return { ok: true, value: `${sign}${integer || '0'}${decimals ? `.${decimals}` : ''}` };
  }
  return { ok: true, value: plainDecimal(number) }; // a shorter one as a double holds it ("9.50" is "9.5", "-3e2" "-300")
}

/**
 * A double in plain decimal notation, never with an exponent: the hosted CRM takes a number
 * property's value only as digits, one optional leading minus and one optional point (its 400
 * otherwise), where JavaScript writes 1e21 and 1e-7 with an exponent. The digits are the shortest
 * that read back as the same double, as String() gives them.
 */
export function plainDecimal(number: number): string {
  const text = String(number);
  const at = text.indexOf('e');
  if (at === -1) return text;
  const exponent = Number(text.slice(at + 1));
  const mantissa = text.slice(0, at);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const [whole = '', fraction = ''] = mantissa.slice(sign.length).split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent; // where the point falls among the digits
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
