import { ERROR_TYPES, type ErrorType, OBJECT_TYPES, type ObjectType } from '@ecomm-sync/contracts';
import { AppError } from '@ecomm-sync/runtime';

type Query = Record<string, unknown>;

/**
 * A text query parameter given at most once: undefined when absent or empty; a 400 when it was
 * repeated (`?appId=a&appId=b` parses as an array; express's simple parser leaves `appId[x]` a
 * name of its own), rather than read as absent, which would widen or switch what is read.
 */
export function textParam(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  throw AppError.badRequest(`Query parameter ${name} must be given once, as text`);
}

/**
 * A boolean flag as clients write it: `true`/`false` in any case (Python's `str(True)` is "True")
 * or `1`/`0` (PHP's `http_build_query`); anything else is a 400 that says what is taken.
 */
export function booleanParam(query: Query, name: string, fallback: boolean): boolean {
  const value = query[name];
  if (value === undefined) return fallback;
  const written = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (written === 'true' || written === '1') return true;
  if (written === 'false' || written === '0') return false;
  throw AppError.badRequest(`Query parameter ${name} must be true or false (or 1 or 0), got "${String(value)}"`);
}

export function integerParam(query: Query, name: string, fallback: number, min: number, max: number): number {
  const value = query[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || number < min || number > max) {
    throw AppError.badRequest(`Query parameter ${name} must be an integer from ${min} to ${max}, got "${String(value)}"`);
  }
  return number;
}

export function objectTypeParam(value: unknown, where = 'objectType'): ObjectType {
  if (typeof value === 'string' && (OBJECT_TYPES as readonly string[]).includes(value)) return value as ObjectType;
  throw AppError.badRequest(`${where} must be one of ${OBJECT_TYPES.join(', ')}, got "${String(value)}"`);
}

export function optionalObjectType(query: Query, name = 'objectType'): ObjectType | undefined {
  return query[name] === undefined ? undefined : objectTypeParam(query[name], `Query parameter ${name}`);
}

export function optionalErrorType(query: Query, name = 'errorType'): ErrorType | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (ERROR_TYPES as readonly string[]).includes(value)) return value as ErrorType;
  throw AppError.badRequest(`Query parameter ${name} must be one of ${ERROR_TYPES.join(', ')}, got "${String(value)}"`);
}

export function objectIdParam(value: unknown, name: string): string {
  if (typeof value === 'string' && value.length >= 1 && value.length <= 100 && /^[\x00-\x7F]*$/.test(value)) return value;
  throw AppError.badRequest(`${name} must be an ASCII string of 1 to 100 characters`);
}
