import type { Validation } from '@ecomm-sync/contracts';
import { AppError } from './app-error';

/** The validated value, or a 400 whose message names the field and what to fix. */
export function parseWith<T>(validate: (data: unknown) => Validation<T>, data: unknown): T {
  const result = validate(data);
  if (!result.ok) throw AppError.badRequest(result.message);
  return result.value;
}
