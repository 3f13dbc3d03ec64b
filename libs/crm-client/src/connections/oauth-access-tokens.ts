import axios, { isAxiosError } from 'axios';
import { crmErrorReason, CrmRequestError } from '../index';
import { sealedFor, type PortalRepository, type SecretBox, type StoredOAuthToken } from '@ecomm-sync/data-access';

export interface OAuthAccessTokensOptions {
  portals: Pick<PortalRepository, 'findById' | 'saveOAuthRefresh'>;
  secretBox: SecretBox;
  clock: () => number;
  /** A token this close to its expiry is refreshed before it is used. */
  refreshMarginMs: number;
  timeoutMs: number;
}

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/**
 * The access token of one portal's OAuth connection to a hosted CRM, obtained with the
 * refresh-token grant (`POST {baseUrl}/oauth/v1/token`). Refreshed shortly before it expires and
 * when the CRM refuses it; one refresh at a time per process. Refresh tokens may rotate, and every
 * replica shares the portal's document: the refresh token used is replaced only if it is still the
 * stored one, and a replica whose refresh lost that race takes the token the winner stored.
 */
export class OAuthAccessTokens {
  private current: { token: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly portalId: number,
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly options: OAuthAccessTokensOptions,
  ) {}

  /** A token that is not about to expire. */
  async get(): Promise<string> {
    if (this.usable(this.current)) return this.current!.token;
    return this.renew(this.current?.token ?? null);
  }

  /** A token other than `rejected` (which the CRM refused or which expires): refreshes unless another caller just did. */
  renew(rejected: string | null): Promise<string> {
    if (this.current && this.current.token !== rejected && this.usable(this.current)) return Promise.resolve(this.current.token);
    this.pending ??= this.refresh(rejected).finally(() => (this.pending = null));
    return this.pending;
  }

  private usable(token: { expiresAt: number } | null): boolean {
    return token !== null && token.expiresAt - this.options.refreshMarginMs > this.options.clock();
  }

  private async refresh(rejected: string | null): Promise<string> {
    const state = await this.stored();
    const shared = this.shared(state.token, rejected);
    if (shared) return shared;
    const { secretBox } = this.options;
    let answer: { accessToken: string; refreshToken: string | null; expiresIn: number };
    const usedRefreshToken = secretBox.open(state.refreshTokenSealed, sealedFor.crmConnection(this.portalId, 'refresh-token'));
    try {
      answer = await this.grant(secretBox.open(state.clientSecretSealed, sealedFor.crmConnection(this.portalId, 'client-secret')), usedRefreshToken);
    } catch (error) {
      // Another replica may have used (and so spent) the same refresh token a moment earlier.
      const again = await this.stored();
      const theirs = again.refreshTokenSealed !== state.refreshTokenSealed ? this.shared(again.token, rejected) : null;
      if (theirs) return theirs;
      throw error;
    }
    const now = this.options.clock();
    const token: StoredOAuthToken = {
      accessTokenSealed: secretBox.seal(answer.accessToken, sealedFor.crmConnection(this.portalId, 'access-token')),
      expiresAt: now + answer.expiresIn * 1000,
      refreshedAt: now,
    };
    // Rotated: a refresh token other than the one used (a CRM may also answer the same one again).
    const rotated = answer.refreshToken !== null && answer.refreshToken !== usedRefreshToken;
    const refreshTokenSealed = rotated
      ? secretBox.seal(answer.refreshToken!, sealedFor.crmConnection(this.portalId, 'refresh-token'))
      : state.refreshTokenSealed;
    await this.keep(state.refreshTokenSealed, usedRefreshToken, refreshTokenSealed, token, rotated);
    this.current = { token: answer.accessToken, expiresAt: token.expiresAt };
    return answer.accessToken;
  }

  /**
   * Stores a refresh's answer while the connection still holds the refresh token used. Not kept
   * when the connection was replaced or another replica stored its refresh meanwhile (the token
   * still serves the requests in flight). The stored text may differ while the token is the same:
   * `reseal` sealed it again under a new key; then a rotated token is saved on the text now stored,
   * since lost here it leaves the portal with a spent one (a token not rotated is not written again:
   * the text read before the reseal would undo it). A failed write is tried again after a moment;
   * after three, the error says what may be lost.
   */
  private async keep(usedSealed: string, usedToken: string, refreshTokenSealed: string, token: StoredOAuthToken, rotated: boolean): Promise<void> {
    const { portals, secretBox } = this.options;
    let expected = usedSealed;
    for (let attempt = 1; attempt <= 3; attempt++) {
      let saved: boolean;
      try {
        saved = await portals.saveOAuthRefresh(this.portalId, expected, refreshTokenSealed, token);
      } catch (error) {
        if (attempt < 3) {
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt)); // a primary's election takes a moment
          continue;
        }
        throw new CrmRequestError(
          `the OAuth refresh of portal ${this.portalId} could not be stored (${String(error)}); a rotated refresh token may be lost: enter the connection again if the CRM refuses the next refresh`,
          503,
          'CRM_AUTH',
        );
      }
      // Nothing rotated: nothing is lost, and writing the text read before would undo a reseal.
      if (saved || !rotated) return;
      const now = await portals.findById(this.portalId);
      const auth = now?.crmConnection?.kind === 'hosted' && now.crmConnection.auth.type === 'oauth' ? now.crmConnection.auth : null;
      if (!auth || auth.refreshTokenSealed === expected) return;
      const stored = (() => {
        try {
          return secretBox.open(auth.refreshTokenSealed, sealedFor.crmConnection(this.portalId, 'refresh-token'));
        } catch {
          return null;
        }
      })();
      if (stored !== usedToken) return;
      expected = auth.refreshTokenSealed;
    }
  }

  /** The stored access token, if it is usable and not the rejected one. */
  private shared(stored: StoredOAuthToken | null, rejected: string | null): string | null {
    if (!stored || !this.usable(stored)) return null;
    const token = this.options.secretBox.open(stored.accessTokenSealed, sealedFor.crmConnection(this.portalId, 'access-token'));
    if (token === rejected) return null;
    this.current = { token, expiresAt: stored.expiresAt };
    return token;
  }

  private async stored(): Promise<{ clientSecretSealed: string; refreshTokenSealed: string; token: StoredOAuthToken | null }> {
    const portal = await this.options.portals.findById(this.portalId);
    const connection = portal?.crmConnection;
    if (
      connection?.kind !== 'hosted' ||
      connection.auth.type !== 'oauth' ||
      connection.baseUrl !== this.baseUrl ||
      connection.auth.clientId !== this.clientId
    ) {
      throw new CrmRequestError(
        `the CRM connection of portal ${this.portalId} changed meanwhile; the next attempt uses the new one`,
        0,
        'CRM_CONNECTION_CHANGED',
      );
    }
    return { clientSecretSealed: connection.auth.clientSecretSealed, refreshTokenSealed: connection.auth.refreshTokenSealed, token: portal!.crmOAuthToken };
  }

  /**
   * The refresh-token grant. A refusal is the connection's fault, not the data's: it is reported
   * as 401 (refused credentials: the applier's `unauthorized` wait), anything else as the CRM not
   * answering, so that work waits for the operator to fix the connection instead of turning every
   * record into an error.
   */
  private async grant(clientSecret: string, refreshToken: string): Promise<{ accessToken: string; refreshToken: string | null; expiresIn: number }> {
    const url = `${this.baseUrl}/oauth/v1/token`;
    const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: this.clientId, client_secret: clientSecret, refresh_token: refreshToken });
    let data: TokenAnswer;
    try {
      data = (
        await axios.post<TokenAnswer>(url, form.toString(), {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          timeout: this.options.timeoutMs,
          // A redirect would re-post the client secret and the refresh token wherever it points.
          maxRedirects: 0,
          maxContentLength: 64 * 1024,
        })
      ).data;
    } catch (error) {
      const status = isAxiosError(error) ? (error.response?.status ?? 0) : 0;
      const body = isAxiosError(error) ? (error.response?.data as { error?: string; message?: string } | undefined) : undefined;
      const reason = body?.error ?? body?.message ?? (isAxiosError(error) ? crmErrorReason(error) : String(error));
      // Refused (400 invalid_grant: the app was uninstalled or its refresh token replaced; 401, 403:
      // the client is not known or not allowed): the connection's credentials are refused, a 401 the
      // applier waits on as such (CrmRequestError.refusesCredentials). Another answer: a 503, a wait.
      const refused = status === 400 || status === 401 || status === 403;
      throw new CrmRequestError(
        `OAuth refresh at ${url} for portal ${this.portalId} failed (${status || 'no answer'}): ${reason}`,
        refused ? 401 : status === 0 || status >= 500 || status === 429 ? status : 503,
        'CRM_AUTH',
      );
    }
    if (typeof data.access_token !== 'string' || data.access_token === '' || typeof data.expires_in !== 'number' || !(data.expires_in > 0)) {
      throw new CrmRequestError(`OAuth refresh at ${url} for portal ${this.portalId} answered without access_token and expires_in`, 502, 'CRM_AUTH');
    }
    const rotated = typeof data.refresh_token === 'string' && data.refresh_token !== '' ? data.refresh_token : null;
    return { accessToken: data.access_token, refreshToken: rotated, expiresIn: data.expires_in };
  }
}
