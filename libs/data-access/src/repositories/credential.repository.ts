import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { credentialModel, keyGenerationModel, type CredentialKind } from '../models/credential.model';
import { hashSecret, newSecret, secretMatches } from '../secrets';
import {
  keyGenerationId,
  PREFIX,
  SPENT_REFRESH_TOKEN,
  toCredential,
  toQuery,
  withSpentTokens,
  type Credential,
  type CredentialDoc,
  type CredentialFilter,
  type CredentialScope,
  type InstallKey,
  type KeyOwner,
  type OutlivedBefore,
  type RefreshTokenSpend,
} from './credential-docs';

export type { CredentialKind } from '../models/credential.model';
export type { Credential, CredentialScope, InstallKey, KeyOwner, OutlivedBefore, RefreshTokenSpend } from './credential-docs';
export { keyGenerationId } from './credential-docs';

/**
 * Portal keys, developer keys, private-app tokens and OAuth tokens: issued with a fresh secret
 * (returned once), resolved by the hash of the secret, listed and revoked by public id.
 */
export class CredentialRepository {
  private readonly credentials;
  private readonly generations;

  constructor(connection: Connection) {
    this.credentials = credentialModel(connection);
    this.generations = keyGenerationModel(connection);
  }

  /** Raises the owner's key generation of a kind and answers it: the database orders rotations. */
  async nextKeyGeneration(kind: CredentialKind, owner: KeyOwner): Promise<number> {
    const doc = await this.generations
      .findOneAndUpdate({ _id: keyGenerationId(kind, owner) }, { $inc: { generation: 1 } }, { upsert: true, new: true })
      .lean<{ generation: number }>();
    return doc!.generation;
  }

  /** Whether the owner has a stored key of the kind of a generation above `generation` (a later rotation's). */
  async hasKeyAbove(kind: CredentialKind, owner: KeyOwner, generation: number): Promise<boolean> {
    return (await this.credentials.exists({ ...owner, kind, generation: { $gt: generation } })) !== null;
  }

  /** Stores a new credential and answers its secret; `secret` is only given for the demo's fixed keys. */
  async issue(
    kind: CredentialKind,
    scope: CredentialScope,
    now: number,
    secret = newSecret(PREFIX[kind]),
  ): Promise<{ secret: string; credential: Credential }> {
    const doc: CredentialDoc = {
      _id: hashSecret(secret),
      credentialId: `cred_${randomBytes(9).toString('base64url')}`,
      kind,
      portalId: scope.portalId ?? null,
      developerId: scope.developerId ?? null,
      appId: scope.appId ?? null,
      name: scope.name ?? null,
      expiresAt: scope.expiresAt ?? null,
      createdAt: now,
      ...(scope.generation !== undefined ? { generation: scope.generation } : {}),
    };
    await this.credentials.collection.insertOne(doc as never);
    return { secret, credential: toCredential(doc) };
  }

  /** The credential whose secret this is (expired ones included: the caller decides), or null. */
  async resolve(secret: string): Promise<Credential | null> {
    const doc = (await this.credentials.collection.findOne({ _id: hashSecret(secret) } as never)) as CredentialDoc | null;
    return doc && secretMatches(secret, doc._id) ? toCredential(doc) : null;
  }

  /** The credentials of an owner, oldest first; spent refresh tokens are not listed (they grant nothing but a lost answer's retry). */
  async list(filter: CredentialFilter): Promise<Credential[]> {
    const docs = (await this.credentials.collection
      .find(filter.kinds ? toQuery(filter) : { ...toQuery(filter), kind: { $ne: SPENT_REFRESH_TOKEN } })
      .sort({ createdAt: 1 })
      .toArray()) as unknown as CredentialDoc[];
    return docs.map(toCredential);
  }

  async find(credentialId: string): Promise<Credential | null> {
    const doc = (await this.credentials.collection.findOne({ credentialId })) as CredentialDoc | null;
    return doc ? toCredential(doc) : null;
  }

  /** Deletes one credential; answers it, or null when there was none with this id. */
  async revoke(credentialId: string): Promise<Credential | null> {
    const doc = (await this.credentials.collection.findOneAndDelete({ credentialId })) as CredentialDoc | null;
    return doc ? toCredential(doc) : null;
  }

  /**
   * Deletes every credential matching `filter` except `keep` (spent refresh tokens count as refresh
   * tokens); with `generationBelow`, only keys of a generation below it (keys made otherwise count as
   * 0). Answers how many went.
   */
  async revokeWhere(filter: CredentialFilter, keep?: string, { generationBelow }: { generationBelow?: number } = {}): Promise<number> {
    const query = withSpentTokens(filter);
    if (keep) query.credentialId = { $ne: keep };
    if (Object.keys(query).length === 0) throw new Error('refusing to revoke every credential');
    if (generationBelow !== undefined) query.$or = [{ generation: { $lt: generationBelow } }, { generation: null }];
    return (await this.credentials.collection.deleteMany(query)).deletedCount;
  }

  /**
   * Marks an unused refresh token spent on the pair it bought; false when it is not an unused
   * refresh token (another refresh spent it first: of two at once, one wins).
   */
  async spendRefreshToken(secret: string, spend: RefreshTokenSpend): Promise<boolean> {
    const result = await this.credentials.collection.updateOne({ _id: hashSecret(secret), kind: 'refresh-token' } as never, {
      $set: { kind: SPENT_REFRESH_TOKEN, spent: spend },
    });
    return result.modifiedCount === 1;
  }

  /**
   * Moves a spent refresh token on to the pair that replaces the one its spend bought (a lost
   * answer issued again); false when it no longer names `fromRefreshTokenId` (another retry moved it first).
   */
  async passOnRefreshToken(secret: string, fromRefreshTokenId: string, to: Pick<RefreshTokenSpend, 'accessTokenId' | 'refreshTokenId'>): Promise<boolean> {
    const result = await this.credentials.collection.updateOne(
      { _id: hashSecret(secret), kind: SPENT_REFRESH_TOKEN, 'spent.refreshTokenId': fromRefreshTokenId } as never,
      { $set: { 'spent.accessTokenId': to.accessTokenId, 'spent.refreshTokenId': to.refreshTokenId } },
    );
    return result.modifiedCount === 1;
  }

  /** Records an access token's first use; false when it was recorded before (or is no access token). */
  async markAccessTokenUsed(secret: string, at: number): Promise<boolean> {
    const result = await this.credentials.collection.updateOne({ _id: hashSecret(secret), kind: 'access-token', usedAt: { $exists: false } } as never, {
      $set: { usedAt: at },
    });
    return result.modifiedCount === 1;
  }

  /** Deletes an access token only while its first use is not recorded; false when it was used (or is gone). */
  async revokeUnusedAccessToken(credentialId: string): Promise<boolean> {
    return (await this.credentials.collection.deleteOne({ credentialId, kind: 'access-token', usedAt: { $exists: false } })).deletedCount === 1;
  }

  /** Deletes a refresh token only while it is unused; false when it was used (or is gone). */
  async revokeUnusedRefreshToken(credentialId: string): Promise<boolean> {
    return (await this.credentials.collection.deleteOne({ credentialId, kind: 'refresh-token' })).deletedCount === 1;
  }

  /**
   * Deletes, in one command, an install's access tokens that expired before `accessTokensExpiredBefore`
   * and its refresh tokens spent before `refreshTokensSpentBefore` (past their grace); answers how many went.
   */
  async deleteOutlivedTokens(install: InstallKey, before: OutlivedBefore): Promise<number> {
    const query = {
      portalId: install.portalId,
      appId: install.appId,
      // The kinds beside the install narrow the index's range to them; the `$or` picks within it.
      kind: { $in: ['access-token', SPENT_REFRESH_TOKEN] },
      $or: [
        { kind: 'access-token', expiresAt: { $lt: before.accessTokensExpiredBefore } },
        { kind: SPENT_REFRESH_TOKEN, 'spent.at': { $lt: before.refreshTokensSpentBefore } },
      ],
    };
    return (await this.credentials.collection.deleteMany(query)).deletedCount;
  }

  /**
   * Deletes an install's access tokens beyond its `newest` (by issue time, ties by id); `keep`, the one
   * a grant just issued, stays and counts among them (another grant's call may still take it).
   * Answers how many went. One read finds the newest token to go (walking the install's index in
   * issue-time order), one delete takes it and every older one; `newest` below 1 deletes nothing.
   */
  async deleteAccessTokensBeyond(install: InstallKey, newest: number, keep: string): Promise<number> {
    if (newest < 1) return 0;
    const others = { portalId: install.portalId, appId: install.appId, kind: 'access-token', credentialId: { $ne: keep } };
    const [first] = await this.credentials.collection
      .find(others, { projection: { _id: 0, createdAt: 1, credentialId: 1 } })
      .sort({ createdAt: -1, credentialId: -1 })
      .skip(newest - 1)
      .limit(1)
      .toArray();
    if (!first) return 0;
    const { createdAt, credentialId } = first as unknown as Pick<Credential, 'createdAt' | 'credentialId'>;
    const olderOrIt = { $or: [{ createdAt: { $lt: createdAt } }, { createdAt, credentialId: { $lte: credentialId } }] };
    return (await this.credentials.collection.deleteMany({ ...others, ...olderOrIt })).deletedCount;
  }
}
