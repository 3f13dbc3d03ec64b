import type { Request } from 'express';
import { hashSecret, type Credential, type CredentialRepository } from '@ecomm-sync/data-access';
import { TtlCache } from '@ecomm-sync/domain';
import { withTimeout } from '@ecomm-sync/messaging';
import { AppError, bearerToken, type Logger, presentedApiKey } from '@ecomm-sync/runtime';
import { textParam } from './query-params';

/** Longest a first use waits for its mark to be written; the request then goes on without it. */
const FIRST_USE_MARK_MS = 250;

/** Who is calling, from a verified credential (SPEC.md "Authentication"). */
export type Principal =
  | { kind: 'portal-key' | 'private-app-token'; credentialId: string; portalId: number }
  | { kind: 'access-token'; credentialId: string; portalId: number; appId: string }
  | { kind: 'developer-key'; credentialId: string; developerId: number };

/** Bearer values a client in the field sends when it has no token; they are not a credential. */
const PLACEHOLDER_TOKENS = new Set(['undefined', 'null', '']);

/**
 * Finds the credential of a request: an `Authorization: Bearer` token (private-app or OAuth access
 * token) or an API key (portal or developer key) as `hapikey`, or in the X-Api-Key header. A malformed or placeholder bearer header that
 * comes with a valid hapikey is ignored (vendor-api-notes.md). Look-ups are remembered for the
 * cache's lifetime; the cache is the gateway's (`lookupCaches`), emptied in every replica on
 * `lookups.changed` when a credential or portal changes.
 */
export class CredentialResolver {
  constructor(
    private readonly credentials: Pick<CredentialRepository, 'resolve' | 'markAccessTokenUsed'>,
    private readonly cache: TtlCache<Credential | null> = new TtlCache(0),
    private readonly clock: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  async identify(req: Request): Promise<Principal> {
    const hapikey = presentedApiKey(req);
    const header = req.header('authorization');
    const token = bearerToken(header);
    if (token !== undefined && !PLACEHOLDER_TOKENS.has(token)) {
      const credential = await this.lookup(token);
      if (credential && (credential.kind === 'private-app-token' || credential.kind === 'access-token')) return this.principal(credential);
      // A real token that is wrong is refused even beside a valid hapikey: only a missing or
      // placeholder bearer (a client's "Bearer undefined") falls back to the key.
      throw AppError.unauthorized(
        credential?.kind === 'refresh-token'
          ? 'A refresh token is not an access token: exchange it at POST /oauth/v1/token'
          : 'Invalid bearer token: no private-app or OAuth access token has this value (it may have been revoked, expired and been deleted, or replaced by newer tokens of its install: get a new one at POST /oauth/v1/token)',
      );
    }
    // Past a real bearer token, the key is what identifies: a repeated hapikey (an array to express)
    // is no key, said as such rather than looked past to the header or to "Missing credential".
    textParam(req.query, 'hapikey');
    if (hapikey) {
      const credential = await this.lookup(hapikey);
      if (credential && (credential.kind === 'portal-key' || credential.kind === 'developer-key')) return this.principal(credential);
      const where = typeof req.query.hapikey === 'string' && req.query.hapikey !== '' ? 'hapikey' : 'X-Api-Key header';
      throw AppError.unauthorized(`Invalid ${where}: no portal or developer account has this API key (it may have been rotated)`);
    }
    throw AppError.unauthorized(
      header && token === undefined
        ? 'Malformed Authorization header: send "Authorization: Bearer <token>", or the API key in the hapikey query parameter'
        : 'Missing credential: send "Authorization: Bearer <token>" or the API key in the hapikey query parameter',
    );
  }

  private lookup(secret: string): Promise<Credential | null> {
    return this.cache.get(hashSecret(secret), async () => {
      const credential = await this.credentials.resolve(secret);
      if (credential?.kind === 'access-token' && credential.usedAt === undefined) await this.markFirstUse(secret, credential);
      return credential;
    });
  }

  /**
   * An access token's first use is recorded (one write in the token's life, on a look-up the cache
   * did not answer): a pair whose access token was used reached its client, so the spent refresh
   * token that bought it is no lost answer's retry (decision 12, addendum of 2026-12-05). A failed
   * or slow write only leaves the grace as wide as it was without the mark; the request goes on.
   */
  private async markFirstUse(secret: string, credential: Credential): Promise<void> {
    await withTimeout(this.credentials.markAccessTokenUsed(secret, this.clock()), FIRST_USE_MARK_MS, "recording an access token's first use").catch(
      (error: unknown) =>
        this.logger?.warn("an access token's first use could not be recorded", { credentialId: credential.credentialId, error: String(error) }),
    );
  }

  private principal(credential: Credential): Principal {
    const { credentialId } = credential;
    switch (credential.kind) {
      case 'access-token':
        if (credential.expiresAt !== null && credential.expiresAt <= this.clock()) {
          throw AppError.unauthorized('The access token expired; get a new one at POST /oauth/v1/token with grant_type=refresh_token');
        }
        return { kind: 'access-token', credentialId, portalId: credential.portalId!, appId: credential.appId! };
      case 'developer-key':
        return { kind: 'developer-key', credentialId, developerId: credential.developerId! };
      default:
        return { kind: credential.kind as 'portal-key' | 'private-app-token', credentialId, portalId: credential.portalId! };
    }
  }
}
