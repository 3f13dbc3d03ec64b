import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { CrmError } from '../domain/crm-error';
import { asAccount, hashToken, type Account, type AccountDoc } from './account-store';
import type { CrmModels } from './crm-models';
import type { OAuthAccessTokenDoc } from './oauth-models';

/** Seconds an access token lives: the hosted CRM's `expires_in`. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

// Issued access tokens carry a prefix so that authentication reads the issued tokens only for them
// and the accounts' static tokens only for the others: one read either way.
const ACCESS_TOKEN_PREFIX = 'crm-oat-';
const REFRESH_TOKEN_PREFIX = 'crm-ort-';
const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

export const looksIssuedAccessToken = (token: string) => token.startsWith(ACCESS_TOKEN_PREFIX);

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

/** Why a refresh was refused, as the hosted CRM's token endpoint names it in `status`. */
export type RefreshRefusal = 'BAD_CLIENT_ID' | 'BAD_REFRESH_TOKEN';

/** What an issued access token opens: its account, or nothing since it expired (epoch ms). */
export type AccessTokenAccount = { account: Account } | { expiredAt: number };

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The hosted CRM's OAuth for the built-in CRM's accounts: a client registered for an account gets a
 * refresh token, which the token endpoint exchanges for access tokens that open the objects API
 * like the account's own token until they expire. Every secret is stored as its sha256.
 */
export class OAuthStore {
  constructor(private readonly models: CrmModels) {}

  /**
   * Registers the client for the account and hands out its refresh token. Registering the same
   * client again replaces its secret and refresh token (the earlier one stops working); access
   * tokens already issued live until they expire, as the hosted CRM's do.
   */
  async grant(portalId: number, clientId: string, clientSecret: string): Promise<string> {
    if (!(await this.models.accounts.exists({ portalId }))) {
      throw CrmError.notFound(`No CRM account for portal ${portalId}; create it with PUT /crm/admin/v1/accounts/${portalId}`);
    }
    const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
    const write = () =>
      this.models.oauthGrants.updateOne(
        { clientId, portalId },
        { $set: { clientSecretHash: hashToken(clientSecret), refreshTokenHash: hashToken(refreshToken) } },
        { upsert: true },
      );
    // Two registrations at once: the one whose insert lost on the unique index updates instead.
    await write().catch((error: unknown) => {
      if (!onlyDuplicateKeyErrors(error)) throw error;
      return write();
    });
    return refreshToken;
  }

  /** The refresh-token grant: a new access token for the grant's account, or why not. */
  async refresh(clientId: string, clientSecret: string, refreshToken: string, now: number): Promise<IssuedTokens | RefreshRefusal> {
    const secretHash = hashToken(clientSecret);
    const grant = await this.models.oauthGrants.findOne({ refreshTokenHash: hashToken(refreshToken) }).lean();
    if (!grant || grant.clientId !== clientId || !sameHash(grant.clientSecretHash, secretHash)) {
      // The client is checked first (RFC 6749 section 5.2), so a wrong client learns nothing about the refresh token.
      const clientKnown = grant?.clientId === clientId ? false : await this.models.oauthGrants.exists({ clientId, clientSecretHash: secretHash });
      return clientKnown ? 'BAD_REFRESH_TOKEN' : 'BAD_CLIENT_ID';
    }
    const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
    await this.models.oauthAccessTokens.create({
      _id: hashToken(accessToken),
      portalId: grant.portalId,
      clientId,
      expiresAt: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
    });
    // The hosted CRM keeps the refresh token: the answer carries the one presented.
    return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }

  /**
   * The account an issued access token opens, in one query (the token by its hash, joined with its
   * account by the account's portalId index). Null for a token never issued or already removed.
   */
  async accountByAccessToken(token: string, now: number): Promise<AccessTokenAccount | null> {
    const [found] = await this.models.oauthAccessTokens.aggregate<OAuthAccessTokenDoc & { accounts: AccountDoc[] }>([
      { $match: { _id: hashToken(token) } },
      { $lookup: { from: this.models.accounts.collection.collectionName, localField: 'portalId', foreignField: 'portalId', as: 'accounts' } },
    ]);
    if (!found || found.accounts.length === 0) return null;
    const expiresAt = new Date(found.expiresAt).getTime();
    return expiresAt <= now ? { expiredAt: expiresAt } : { account: asAccount(found.accounts[0]) };
  }
}
