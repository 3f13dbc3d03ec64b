import { createHash } from 'node:crypto';
import type { CrmConnection, CrmConnectionInput, CrmConnectionView, CrmLimits } from '@ecomm-sync/contracts';
import { HttpCrmClient, type CrmClientOptions, type CrmPort } from '../index';
import { currentEcommPipeline, sealedFor, type Portal, type PortalRepository, type SecretBox, type StoredCrmConnection } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import { CrmConnectionInputError, toCrmConnection } from './crm-connection-input';
import { OAuthAccessTokens } from './oauth-access-tokens';
import { OAuthCrmClient } from './oauth-crm-client';

/**
 * The shared request budget of one CRM account (built in another lib). Opaque here: the resolver
 * only hands it to the HTTP client, whose `budget` option spends it.
 */
import type { CrmBudget } from '@ecomm-sync/domain';

export type { CrmBudget };

/** What the HTTP client is built with: its options, and a budget when the hook gave one. */
export type CrmClientSpec = CrmClientOptions & { budget?: CrmBudget };

export interface CrmConnectionsOptions {
  portals: Pick<PortalRepository, 'findById' | 'setCrmConnection' | 'saveOAuthRefresh' | 'withPlaintextCrmToken' | 'sealCrmToken'>;
  /** Seals and opens every CRM secret (SECRETS_KEY). */
  secretBox: SecretBox;
  /** The built-in CRM's objects API (CRM_BASE_URL). */
  builtinBaseUrl: string;
  timeoutMs?: number;
  /** Longest time one request waits (budget, 429s, a CRM not answering) before it fails as unavailable and the work is parked. */
  maxWaitMs?: number;
  /** Chunks of 100 of one batch call sent side by side, over any connection (default DEFAULT_CHUNKS_AT_ONCE). */
  chunksAtOnce?: number;
  /** An OAuth access token this close to its expiry is refreshed first (default one minute). */
  refreshMarginMs?: number;
  clock?: () => number;
  /**
   * The request budget of a CRM account, if there is one; called once per client made. `kind`:
   * the built-in CRM (nearby) or a hosted one, whose requests may take longer to arrive.
   */
  budgetFor?: (accountKey: string, limits: CrmLimits, kind: CrmConnection['kind']) => CrmBudget | undefined;
  /** Makes the HTTP client (tests wrap it); the default is HttpCrmClient. */
  createClient?: (spec: CrmClientSpec) => CrmPort;
  /**
   * Whether a hosted connection may use `http` (development and tests: CRM_ALLOW_HTTP); otherwise
   * only `https`, since every request carries the account's token (default false).
   */
  allowHttpHosted?: boolean;
  logger?: Logger;
}

/**
 * The account whose limits a connection's requests count against: the built-in CRM and a private
 * app per portal; an OAuth app per app and portal (the vendor limits an OAuth app's burst "per app
 * per portal": every portal it is installed in has its own).
 */
export function crmAccountKey(portalId: number, connection: CrmConnection): string {
  if (connection.kind === 'builtin') return `builtin:${portalId}`;
  return connection.auth.type === 'oauth'
    ? `hosted:${connection.baseUrl}:app:${connection.auth.clientId}:${portalId}`
    : `hosted:${connection.baseUrl}:${portalId}`;
}

/** A public id of a sealed secret: it changes whenever the secret is set again and tells nothing about it. */
const credentialIdOf = (sealed: string): string => `crmc-${createHash('sha256').update(sealed).digest('hex').slice(0, 16)}`;

const iso = (epochMs: number | null | undefined): string | null => (epochMs ? new Date(epochMs).toISOString() : null);

/**
 * The one place that turns a portal into its CRM port (decision 22): the built-in CRM with the
 * portal's token, or a hosted CRM with a private-app token or OAuth. Clients are cached per portal
 * and rebuilt when the stored connection changed; `forget` drops them (every replica calls it on
 * `lookups.changed`, which the gateway publishes when a connection is set).
 */
export class CrmConnections {
  private readonly clients = new Map<number, { version: string; port: CrmPort }>();
  private readonly clock: () => number;
  private readonly createClient: (spec: CrmClientSpec) => CrmPort;

  constructor(private readonly options: CrmConnectionsOptions) {
    this.clock = options.clock ?? Date.now;
    this.createClient = options.createClient ?? ((spec) => new HttpCrmClient(spec));
  }

  /** The portal's CRM port (cached). A built-in token still in clear is sealed in the background. */
  clientFor(portal: Portal): CrmPort {
    const version = this.version(portal);
    const cached = this.clients.get(portal.portalId);
    if (cached?.version === version) return cached.port;
    const port = this.build(portal);
    this.clients.set(portal.portalId, { version, port });
    if ('plaintext' in portal.builtinCrmToken) void this.seal(portal.portalId, portal.builtinCrmToken.plaintext);
    return port;
  }

  /** Drops cached clients: one portal's, or all. */
  forget(portalId?: number): void {
    if (portalId === undefined) this.clients.clear();
    else this.clients.delete(portalId);
  }

  /** The portal's connection with its secrets opened (for the clients; never for an answer). */
  connectionOf(portal: Portal): CrmConnection {
    const stored = portal.crmConnection;
    if (!stored || stored.kind === 'builtin') return { kind: 'builtin', limits: stored?.limits ?? null };
    const { secretBox } = this.options;
    const auth =
      stored.auth.type === 'private-app'
        ? { type: 'private-app' as const, token: secretBox.open(stored.auth.tokenSealed, sealedFor.crmConnection(portal.portalId, 'token')) }
        : {
            type: 'oauth' as const,
            clientId: stored.auth.clientId,
            clientSecret: secretBox.open(stored.auth.clientSecretSealed, sealedFor.crmConnection(portal.portalId, 'client-secret')),
            refreshToken: secretBox.open(stored.auth.refreshTokenSealed, sealedFor.crmConnection(portal.portalId, 'refresh-token')),
          };
    return { kind: 'hosted', baseUrl: stored.baseUrl, auth, limits: stored.limits };
  }

  /** The token of the portal's built-in CRM account (its admin API sets it; tests read with it). */
  builtinToken(portal: Portal): string {
    return 'sealed' in portal.builtinCrmToken
      ? this.options.secretBox.open(portal.builtinCrmToken.sealed, sealedFor.builtinCrmToken(portal.portalId))
      : portal.builtinCrmToken.plaintext;
  }

  /** What may be shown of the portal's connection: no secret. */
  view(portal: Portal): CrmConnectionView {
    const stored = portal.crmConnection;
    const base = { portalId: portal.portalId, changedAt: iso(stored?.changedAt), lastTokenRefreshAt: null, clientId: null };
    const builtinCredential = 'sealed' in portal.builtinCrmToken ? credentialIdOf(portal.builtinCrmToken.sealed) : 'crmc-not-sealed-yet';
    if (!stored || stored.kind === 'builtin')
      return { ...base, kind: 'builtin', baseUrl: null, authType: 'builtin-token', credentialId: builtinCredential, limits: stored?.limits ?? null };
    if (stored.auth.type === 'private-app')
      return {
        ...base,
        kind: 'hosted',
        baseUrl: stored.baseUrl,
        authType: 'private-app',
        credentialId: credentialIdOf(stored.auth.tokenSealed),
        limits: stored.limits,
      };
    return {
      ...base,
      kind: 'hosted',
      baseUrl: stored.baseUrl,
      authType: 'oauth',
      clientId: stored.auth.clientId,
      credentialId: credentialIdOf(stored.auth.clientSecretSealed),
      limits: stored.limits,
      lastTokenRefreshAt: iso(portal.crmOAuthToken?.refreshedAt),
    };
  }

  /**
   * Sets a portal's connection from an admin request (throws CrmConnectionInputError when it
   * cannot be used as given): secrets sealed, the built-in token sealed too if it was in clear.
   * Null when there is no such portal. Callers tell the other replicas (`lookups.changed`).
   */
  async set(portalId: number, input: CrmConnectionInput): Promise<CrmConnectionView | null> {
    const connection = toCrmConnection(input);
    if (connection.kind === 'hosted' && !this.options.allowHttpHosted && !connection.baseUrl.startsWith('https://'))
      throw new CrmConnectionInputError(
        "baseUrl must be an https URL: every request carries the account's token (http is for development, with CRM_ALLOW_HTTP=true)",
      );
    const { secretBox, portals } = this.options;
    const changedAt = this.clock();
    const stored: StoredCrmConnection =
      connection.kind === 'builtin'
        ? { kind: 'builtin', limits: connection.limits, changedAt }
        : {
            kind: 'hosted',
            baseUrl: connection.baseUrl,
            auth:
              connection.auth.type === 'private-app'
                ? { type: 'private-app', tokenSealed: secretBox.seal(connection.auth.token, sealedFor.crmConnection(portalId, 'token')) }
                : {
                    type: 'oauth',
                    clientId: connection.auth.clientId,
                    clientSecretSealed: secretBox.seal(connection.auth.clientSecret, sealedFor.crmConnection(portalId, 'client-secret')),
                    refreshTokenSealed: secretBox.seal(connection.auth.refreshToken, sealedFor.crmConnection(portalId, 'refresh-token')),
                  },
            limits: connection.limits,
            changedAt,
          };
    const before = await portals.findById(portalId);
    if (!before) return null;
    if ('plaintext' in before.builtinCrmToken) await this.seal(portalId, before.builtinCrmToken.plaintext);
    if (!(await portals.setCrmConnection(portalId, stored))) return null;
    this.forget(portalId);
    return this.view((await portals.findById(portalId))!);
  }

  /**
   * Seals every built-in token still in clear (documents from before decision 22); answers how many.
   * Run at boot. Each portal is tried once, in portal order: one that cannot be sealed (logged) is
   * tried again at its next use, not read again and again here.
   */
  async sealPlaintextTokens(): Promise<number> {
    let sealed = 0;
    for (let after = 0; ;) {
      const batch = await this.options.portals.withPlaintextCrmToken(500, after);
      if (batch.length === 0) return sealed;
      for (const { portalId, crmToken } of batch) if (await this.seal(portalId, crmToken)) sealed++;
      after = batch[batch.length - 1].portalId;
    }
  }

  private async seal(portalId: number, plaintext: string): Promise<boolean> {
    try {
      return await this.options.portals.sealCrmToken(portalId, plaintext, this.options.secretBox.seal(plaintext, sealedFor.builtinCrmToken(portalId)));
    } catch (error) {
      this.options.logger?.warn('could not seal the built-in CRM token of a portal; it is tried again at the next use', { portalId, error: String(error) });
      return false;
    }
  }

  /** What a cached client was built from: a new connection or a new token makes a new client. */
  private version(portal: Portal): string {
    const token = 'sealed' in portal.builtinCrmToken ? portal.builtinCrmToken.sealed : `plain:${portal.builtinCrmToken.plaintext}`;
    return `${portal.crmConnection?.changedAt ?? 0}:${token}:${JSON.stringify(currentEcommPipeline(portal))}`;
  }

  private build(portal: Portal): CrmPort {
    const connection = this.connectionOf(portal);
    const account = crmAccountKey(portal.portalId, connection);
    const budget = connection.limits ? this.options.budgetFor?.(account, connection.limits, connection.kind) : undefined;
    const { timeoutMs = 15_000, maxWaitMs, chunksAtOnce } = this.options;
    const spec = (baseUrl: string, token: string): CrmClientSpec => ({
      baseUrl,
      token,
      timeoutMs,
      account,
      // The request log names the portal (an OAuth account key of before decision 22's addendum named none).
      portalId: portal.portalId,
      ecommPipeline: currentEcommPipeline(portal),
      ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
      ...(chunksAtOnce === undefined ? {} : { chunksAtOnce }),
      ...(budget ? { budget } : {}),
    });
    if (connection.kind === 'builtin') return this.createClient(spec(this.options.builtinBaseUrl, this.builtinToken(portal)));
    if (connection.auth.type === 'private-app') return this.createClient(spec(connection.baseUrl, connection.auth.token));
    const tokens = new OAuthAccessTokens(portal.portalId, connection.baseUrl, connection.auth.clientId, {
      portals: this.options.portals,
      secretBox: this.options.secretBox,
      clock: this.clock,
      refreshMarginMs: this.options.refreshMarginMs ?? 60_000,
      timeoutMs: this.options.timeoutMs ?? 15_000,
    });
    return new OAuthCrmClient(tokens, (token) => this.createClient(spec(connection.baseUrl, token)), chunksAtOnce);
  }
}
