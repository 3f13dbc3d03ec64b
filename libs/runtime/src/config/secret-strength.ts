/** Shortest secret accepted with NODE_ENV=production (32 random bytes, base64, are 44 characters). */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

/** Words of the example, development and documentation values shipped with the project. */
const PLACEHOLDER =
  /change[-_ ]?me|placeholder|example|not[-_ ]for[-_ ]production|^dev[-_]|^test[-_]|^demo[-_]|^admin$|^secret$|^password$|^token$|x{6,}|<.*>/i;

/**
 * Why a secret may not be used in production, or null when it may: a placeholder (the values of
 * the examples and of `npm start`), too short, or one character repeated.
 */
export function weakSecretReason(value: string): string | null {
  if (PLACEHOLDER.test(value)) return 'is a placeholder or development value';
  if (value.length < MIN_PRODUCTION_SECRET_LENGTH) return `is shorter than ${MIN_PRODUCTION_SECRET_LENGTH} characters`;
  if (new Set(value).size < 8) return 'has fewer than 8 different characters';
  return null;
}
