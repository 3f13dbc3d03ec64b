import type { CredentialKind } from '../models/credential.model';

/*
 * How credentials are stored and read: what a credential grants, the stored document, and the
 * filters a listing or revocation reads them by (CredentialRepository does the reading and writing).
 */

/** What a credential grants, without its secret. */
export interface Credential {
  credentialId: string;
  kind: CredentialKind;
  portalId: number | null;
  developerId: number | null;
  appId: string | null;
  name: string | null;
  expiresAt: number | null;
  createdAt: number;
  /** A refresh token that was used: when, and the pair it bought (absent while unused). */
  spent?: RefreshTokenSpend;
  /** An access token's first use, as a gateway first looked it up (absent while unused). */
  usedAt?: number;
}

/** The spend of a refresh token: when, and the credential ids of the pair it bought. */
export interface RefreshTokenSpend {
  at: number;
  accessTokenId: string;
  refreshTokenId: string;
}

/** An application's install in a portal: whose OAuth tokens. */
export interface InstallKey {
  portalId: number;
  appId: string;
}

/** What an install's tidying deletes: access tokens expired, and refresh tokens spent, before these times (ms). */
export interface OutlivedBefore {
  accessTokensExpiredBefore: number;
  refreshTokensSpentBefore: number;
}

export interface CredentialScope {
  portalId?: number;
  developerId?: number;
  appId?: string;
  name?: string;
  expiresAt?: number;
  /** A rotated key's generation (nextKeyGeneration). */
  generation?: number;
}

/** Whose key a rotation replaces. */
export type KeyOwner = { portalId: number } | { developerId: number };

/** The key_generations id of an owner's keys of a kind. */
export const keyGenerationId = (kind: CredentialKind, owner: KeyOwner): string =>
  'portalId' in owner ? `${kind}:portal:${owner.portalId}` : `${kind}:developer:${owner.developerId}`;

export interface CredentialDoc extends Omit<Credential, 'kind'> {
  _id: string;
  kind: CredentialKind | typeof SPENT_REFRESH_TOKEN;
  generation?: number;
}

/**
 * The stored kind of a used refresh token. It is `refresh-token` with `spent` to callers, but kept
 * under a kind of its own so that a build from before spent tokens were kept (a replica in a
 * rolling upgrade, or after a rollback), which looks refresh tokens up by kind, refuses it.
 */
export const SPENT_REFRESH_TOKEN = 'spent-refresh-token';

/** The secret's prefix says what it is (and lets secret scanners recognise it). */
export const PREFIX: Record<CredentialKind, string> = {
  'portal-key': 'pk',
  'developer-key': 'dk',
  'private-app-token': 'pat',
  'access-token': 'oat',
  'refresh-token': 'ort',
};

export const toCredential = ({ _id: _hash, ...credential }: CredentialDoc): Credential => ({
  credentialId: credential.credentialId,
  kind: credential.kind === SPENT_REFRESH_TOKEN ? 'refresh-token' : credential.kind,
  portalId: credential.portalId ?? null,
  developerId: credential.developerId ?? null,
  appId: credential.appId ?? null,
  name: credential.name ?? null,
  expiresAt: credential.expiresAt ?? null,
  createdAt: credential.createdAt,
  ...(credential.spent ? { spent: { ...credential.spent } } : {}),
  ...(credential.usedAt !== undefined ? { usedAt: credential.usedAt } : {}),
});

export type CredentialFilter = Partial<Pick<Credential, 'portalId' | 'developerId' | 'appId'>> & { kinds?: CredentialKind[] };

export function toQuery(filter: CredentialFilter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (filter.portalId !== undefined) query.portalId = filter.portalId;
  if (filter.developerId !== undefined) query.developerId = filter.developerId;
  if (filter.appId !== undefined) query.appId = filter.appId;
  if (filter.kinds) query.kind = { $in: filter.kinds };
  return query;
}

/** A filter that reaches spent refresh tokens wherever it reaches refresh tokens (revocation). */
export function withSpentTokens(filter: CredentialFilter): Record<string, unknown> {
  const query = toQuery(filter);
  if (filter.kinds?.includes('refresh-token')) query.kind = { $in: [...filter.kinds, SPENT_REFRESH_TOKEN] };
  return query;
}
