import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

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

/** What a sealed value belongs to: bound into it (AES-GCM additional data), so it opens nowhere else. */
export const sealedFor = {
  builtinCrmToken: (portalId: number): string => `portal:${portalId}:builtin-crm-token`,
  crmConnection: (portalId: number, field: 'token' | 'client-secret' | 'refresh-token' | 'access-token'): string =>
    `portal:${portalId}:crm-connection:${field}`,
  appClientSecret: (appId: string): string => `app:${appId}:client-secret`,
  alertDestinationSecret: (destinationId: string): string => `alert-destination:${destinationId}:signing-secret`,
  alertDestinationUrl: (destinationId: string): string => `alert-destination:${destinationId}:url`,
};

/** SECRETS_PREVIOUS_KEYS as a list: comma separated, blanks ignored. */
export const keyList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);

/** Whether a stored value is in a sealed form (either generation). */
export const isSealed = (value: string): boolean => value.startsWith('v2.') || value.startsWith('v1.');

interface SealingKey {
  /** Names the key in each value it seals (not secret: derived one way, apart from the sealing key). */
  id: string;
  /** AES-256 key of the v2 form: HKDF-SHA256 of the operator's key. */
  key: Buffer;
  /** The v1 form's key (SHA-256 of the operator's key), for opening values sealed before v2. */
  legacy: Buffer;
}

function sealingKey(secretsKey: string): SealingKey {
  if (secretsKey.length < 16) throw new Error('SECRETS_KEY must be at least 16 characters (use 32 random bytes, base64)');
  const material = Buffer.from(secretsKey, 'utf8');
  const derive = (info: string, length: number) => Buffer.from(hkdfSync('sha256', material, 'ecomm-sync sealed secrets', info, length));
  return { id: derive('key id', 6).toString('base64url'), key: derive('aes-256-gcm v2', 32), legacy: createHash('sha256').update(material).digest() };
}

/**
 * Secrets the service must use, not just check (CRM tokens, an application's client secret that
 * signs its webhooks): AES-256-GCM under a key derived with HKDF from the operator's `SECRETS_KEY`.
 * The sealed form is `v2.<key id>.<base64 of iv, tag and ciphertext>`, and each value is bound to
 * what it belongs to (`sealedFor`: a portal's CRM token, an application's secret), so a value
 * copied to another portal or field fails to open, as does a wrong key or a tampered value.
 * Rotation: values sealed under a previous key (`SECRETS_PREVIOUS_KEYS`) still open, chosen by key
 * id; `needsReseal` tells which to seal again under the current key (`ecomm-sync reseal`). Values
 * of the first form (`v1.`, no key id, bound to nothing) still open until they are sealed again.
 */
export class SecretBox {
  private readonly current: SealingKey;
  private readonly keys: SealingKey[];

  /** From the configuration: SECRETS_KEY, and SECRETS_PREVIOUS_KEYS (comma separated) when set. */
  static fromConfig(config: { SECRETS_KEY: string; SECRETS_PREVIOUS_KEYS?: string }): SecretBox {
    return new SecretBox(config.SECRETS_KEY, keyList(config.SECRETS_PREVIOUS_KEYS));
  }

  constructor(secretsKey: string, previousKeys: readonly string[] = []) {
    this.current = sealingKey(secretsKey);
    this.keys = [this.current, ...previousKeys.map(sealingKey)];
  }

  /** The id of the key new values are sealed under. */
  get keyId(): string {
    return this.current.id;
  }

  seal(secret: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v2.${this.current.id}.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
  }

  open(sealed: string, context: string): string {
    if (sealed.startsWith('v1.')) return this.openFirstForm(sealed);
    const [version, keyId, payload] = sealed.split('.');
    if (version !== 'v2' || payload === undefined) throw new Error('not a sealed secret');
    const key = this.keys.find((candidate) => candidate.id === keyId);
    if (!key) throw new Error(`sealed under key ${keyId}, which this service does not have (SECRETS_KEY or SECRETS_PREVIOUS_KEYS)`);
    return decrypt(key.key, Buffer.from(payload, 'base64'), Buffer.from(context, 'utf8'));
  }

  /** True for a value to seal again: of the first form, or under a key other than the current one. */
  needsReseal(sealed: string): boolean {
    return !sealed.startsWith(`v2.${this.current.id}.`);
  }

  private openFirstForm(sealed: string): string {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    for (const key of this.keys) {
      try {
        return decrypt(key.legacy, raw, null);
      } catch {
        // another key may have sealed it
      }
    }
    throw new Error('the sealed secret opens with no key this service has');
  }
}

function decrypt(key: Buffer, raw: Buffer, aad: Buffer | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
