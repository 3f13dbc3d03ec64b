import { randomBytes } from 'node:crypto';
import {
  type Credential,
  type CredentialKind,
  type CredentialRepository,
  type CredentialScope,
  hashSecret,
  type InstallKey,
  keyGenerationId,
  type KeyOwner,
  newSecret,
  type OutlivedBefore,
  type RefreshTokenSpend,
} from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';

const PREFIX: Record<CredentialKind, string> = {
  'portal-key': 'pk',
  'developer-key': 'dk',
  'private-app-token': 'pat',
  'access-token': 'oat',
  'refresh-token': 'ort',
};

type Filter = Parameters<CredentialRepository['list']>[0];

const matches = (credential: Credential, filter: Filter) =>
  (filter.portalId === undefined || credential.portalId === filter.portalId) &&
  (filter.developerId === undefined || credential.developerId === filter.developerId) &&
  (filter.appId === undefined || credential.appId === filter.appId) &&
  (!filter.kinds || filter.kinds.includes(credential.kind));

/** CredentialRepository in memory: credentials by the hash of their secret, as the real one keys them. */
export class FakeCredentialRepository implements PublicOf<CredentialRepository> {
  private readonly byHash = new Map<string, Credential>();
  /** Rotated keys' generations, by credential id (the real one keeps it in the document, unlisted). */
  private readonly generationOf = new Map<string, number>();
  private readonly keyGenerations = new Map<string, number>();

  async nextKeyGeneration(kind: CredentialKind, owner: KeyOwner): Promise<number> {
    const next = (this.keyGenerations.get(keyGenerationId(kind, owner)) ?? 0) + 1;
    this.keyGenerations.set(keyGenerationId(kind, owner), next);
    return next;
  }

  async hasKeyAbove(kind: CredentialKind, owner: KeyOwner, generation: number): Promise<boolean> {
    return [...this.byHash.values()].some(
      (credential) =>
        credential.kind === kind &&
        ('portalId' in owner ? credential.portalId === owner.portalId : credential.developerId === owner.developerId) &&
        (this.generationOf.get(credential.credentialId) ?? 0) > generation,
    );
  }

  async issue(
    kind: CredentialKind,
    scope: CredentialScope,
    now: number,
    secret = newSecret(PREFIX[kind]),
  ): Promise<{ secret: string; credential: Credential }> {
    const hash = hashSecret(secret);
    if (this.byHash.has(hash)) throw new Error('E11000 duplicate key error: the secret is taken');
    const credential: Credential = {
      credentialId: `cred_${randomBytes(9).toString('base64url')}`,
      kind,
      portalId: scope.portalId ?? null,
      developerId: scope.developerId ?? null,
      appId: scope.appId ?? null,
      name: scope.name ?? null,
      expiresAt: scope.expiresAt ?? null,
      createdAt: now,
    };
    this.byHash.set(hash, credential);
    if (scope.generation !== undefined) this.generationOf.set(credential.credentialId, scope.generation);
    return { secret, credential: copy(credential) };
  }

  async resolve(secret: string): Promise<Credential | null> {
    const found = this.byHash.get(hashSecret(secret));
    return found ? copy(found) : null;
  }

  async list(filter: Filter): Promise<Credential[]> {
    return [...this.byHash.values()]
      .filter((credential) => matches(credential, filter) && !credential.spent)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(copy);
  }

  async find(credentialId: string): Promise<Credential | null> {
    const found = [...this.byHash.values()].find((credential) => credential.credentialId === credentialId);
    return found ? copy(found) : null;
  }

  async revoke(credentialId: string): Promise<Credential | null> {
    for (const [hash, credential] of this.byHash) {
      if (credential.credentialId !== credentialId) continue;
      this.byHash.delete(hash);
      return copy(credential);
    }
    return null;
  }

  async revokeWhere(filter: Filter, keep?: string, { generationBelow }: { generationBelow?: number } = {}): Promise<number> {
    if (filter.portalId === undefined && filter.developerId === undefined && filter.appId === undefined && !filter.kinds && !keep)
      throw new Error('refusing to revoke every credential');
    let count = 0;
    for (const [hash, credential] of this.byHash) {
      if (!matches(credential, filter) || credential.credentialId === keep) continue;
      if (generationBelow !== undefined && !((this.generationOf.get(credential.credentialId) ?? 0) < generationBelow)) continue;
      this.byHash.delete(hash);
      count++;
    }
    return count;
  }

  async spendRefreshToken(secret: string, spend: RefreshTokenSpend): Promise<boolean> {
    const found = this.byHash.get(hashSecret(secret));
    if (found?.kind !== 'refresh-token' || found.spent) return false;
    found.spent = { ...spend };
    return true;
  }

  async passOnRefreshToken(secret: string, fromRefreshTokenId: string, to: Pick<RefreshTokenSpend, 'accessTokenId' | 'refreshTokenId'>): Promise<boolean> {
    const found = this.byHash.get(hashSecret(secret));
    if (found?.kind !== 'refresh-token' || found.spent?.refreshTokenId !== fromRefreshTokenId) return false;
    found.spent = { at: found.spent.at, accessTokenId: to.accessTokenId, refreshTokenId: to.refreshTokenId };
    return true;
  }

  async markAccessTokenUsed(secret: string, at: number): Promise<boolean> {
    const found = this.byHash.get(hashSecret(secret));
    if (found?.kind !== 'access-token' || found.usedAt !== undefined) return false;
    found.usedAt = at;
    return true;
  }

  async revokeUnusedAccessToken(credentialId: string): Promise<boolean> {
    const found = await this.find(credentialId);
    if (found?.kind !== 'access-token' || found.usedAt !== undefined) return false;
    return (await this.revoke(credentialId)) !== null;
  }

  async revokeUnusedRefreshToken(credentialId: string): Promise<boolean> {
    const found = await this.find(credentialId);
    if (found?.kind !== 'refresh-token' || found.spent) return false;
    return (await this.revoke(credentialId)) !== null;
  }

  async deleteOutlivedTokens(install: InstallKey, before: OutlivedBefore): Promise<number> {
    const outlived = (credential: Credential) =>
      (credential.kind === 'access-token' && credential.expiresAt !== null && credential.expiresAt < before.accessTokensExpiredBefore) ||
      (credential.kind === 'refresh-token' && credential.spent !== undefined && credential.spent.at < before.refreshTokensSpentBefore);
    let count = 0;
    for (const [hash, credential] of this.byHash) {
      if (!matches(credential, install) || !outlived(credential)) continue;
      this.byHash.delete(hash);
      count++;
    }
    return count;
  }

  async deleteAccessTokensBeyond(install: InstallKey, newest: number, keep: string): Promise<number> {
    if (newest < 1) return 0;
    const newestFirst = [...this.byHash]
      .filter(([, credential]) => matches(credential, { ...install, kinds: ['access-token'] }) && credential.credentialId !== keep)
      .sort(([, a], [, b]) => b.createdAt - a.createdAt || (a.credentialId < b.credentialId ? 1 : -1));
    const beyond = newestFirst.slice(newest - 1);
    for (const [hash] of beyond) this.byHash.delete(hash);
    return beyond.length;
  }
}
