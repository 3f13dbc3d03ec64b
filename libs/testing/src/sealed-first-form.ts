import { createCipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A secret sealed in the first form (`v1.`: AES-256-GCM under SHA-256 of the key, no key id, bound
 * to nothing), as the service sealed them before decision 46: for tests of what is still opened
 * and of `reseal`.
 */
export function sealedFirstForm(secret: string, secretsKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secretsKey, 'utf8').digest(), iv);
  const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
}
