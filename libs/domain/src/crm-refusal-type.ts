import type { ErrorType } from '@ecomm-sync/contracts';

/**
 * The CRM's codes for a value it refused, and the error type each is recorded as (vendor notes,
 * "Error types": use one of the original's types where the CRM says what was wrong, rather than
 * UNKNOWN_ERROR). INVALID_LONG is the CRM's word for a date it cannot read, neither epoch
 * milliseconds nor ISO 8601 (the original's `... INVALID_LONG ... createdate`).
 */
const TYPE_OF_CODE: Readonly<Record<string, ErrorType>> = {
  INVALID_OPTION: 'INVALID_ENUM_PROPERTY',
  INVALID_DATE: 'ERROR_INVALID_DATE_PROPERTY',
  INVALID_DATETIME: 'ERROR_INVALID_DATE_PROPERTY',
  INVALID_LONG: 'ERROR_INVALID_DATE_PROPERTY',
  INVALID_EMAIL: 'INVALID_EMAIL_ADDRESS',
};

const CODES = Object.keys(TYPE_OF_CODE).join('|');
/**
 * Where a code stands, never inside a value the sender sent: the hosted CRM's `"error":"CODE"` of a
 * property it lists (a value's own quotes are escaped there), the built-in CRM's `inputs[n]: CODE:`.
 */
const CODE = new RegExp(`"error":"(${CODES})"|inputs\\[\\d+\\]: (${CODES}):`);

/**
 * The error type of an object the CRM refused, from its message: the hosted CRM's
 * `Property values were not valid: [{"error":"INVALID_OPTION","name":…}]` and the built-in CRM's
 * `Property "size" of inputs[0]: INVALID_OPTION: …` name the code; the first code known decides.
 * UNKNOWN_ERROR when none does, and for a property the CRM does not define (the applier checks the
 * CRM's properties before writing: one the CRM refuses meanwhile fails the object as before).
 */
export function errorTypeOfCrmRefusal(message: string): ErrorType {
  const found = CODE.exec(message);
  const code = found?.[1] ?? found?.[2];
  return code === undefined ? 'UNKNOWN_ERROR' : TYPE_OF_CODE[code];
}
