import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256-bit random secret, URL-safe, with a prefix that says what it is. */
export const newSecret = (prefix: string): string => `${prefix}-${randomBytes(32).toString('base64url')}`;

/** SHA-256 of a secret, hex: what is stored instead of it (secrets are high-entropy, so a fast hash suffices). */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Whether `secret` hashes to `hash`, compared in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
