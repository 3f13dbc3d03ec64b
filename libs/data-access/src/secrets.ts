import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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

/**
 * Secrets the service must use, not just check (an application's client secret signs its
 * webhooks): AES-256-GCM under a key derived from the operator's `SECRETS_KEY`. The sealed form is
 * `v1.<base64 of iv, tag and ciphertext>`; a wrong key or a tampered value fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretsKey: string) {
    if (secretsKey.length < 16) throw new Error('SECRETS_KEY must be at least 16 characters (use 32 random bytes, base64)');
    this.key = createHash('sha256').update(secretsKey, 'utf8').digest();
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('not a sealed secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
