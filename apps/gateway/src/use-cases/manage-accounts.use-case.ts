import {
  newSecret,
  sealedFor,
  type Application,
  type SecretBox,
  type Credential,
  type CredentialKind,
  type Developer,
  type Install,
  type Portal,
  type Repositories,
} from '@ecomm-sync/data-access';
import type { CrmConnectionInput, CrmConnectionView } from '@ecomm-sync/contracts';
import { CrmAdminClient, CrmConnectionInputError, type CrmConnections } from '@ecomm-sync/crm-client';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import { provisionPortal } from '@ecomm-sync/provisioning';
import { removeApplication } from './app-removal';
import { grantContext, issueTokens, refreshGrant, type GrantContext, type GrantOptions, type TokenPair } from './oauth-grants';

export interface AccountsOptions extends GrantOptions {
  crm: { baseUrl: string; adminToken: string };
  /** Seals client secrets (they sign webhooks, so they are kept, encrypted) and the built-in CRM tokens of new portals. */
  secretBox: SecretBox;
  /** Portals' CRM connections (decision 22). */
  connections: CrmConnections;
  /** Called after anything that changes access (revocation, rotation, uninstall, disabling or enabling a portal, a CRM connection). */
  onAccessChanged: () => Promise<void>;
  /**
   * Called when an application is removed from a portal, once its tokens were revoked and before
   * its install goes: the tenant's ecommerce uninstall (its stores, workflows and syncing) and its
   * alerts. Idempotent: an uninstall that failed after it runs it again.
   */
  onUninstalling: (tenant: { portalId: number; appId: string }) => Promise<void>;
  /** Called after a portal is enabled again, so what it was sent meanwhile is applied. */
  onPortalEnabled: (portalId: number) => Promise<void>;
  clock?: () => number;
}

export type PortalView = Pick<Portal, 'portalId' | 'name' | 'active'>;

export const portalView = ({ portalId, name, active }: Portal): PortalView => ({ portalId, name, active });

/**
 * Accounts and credentials (issue 7): portals with their API keys and private-app tokens,
 * developer accounts with their keys, applications with their client secrets, installs with their
 * OAuth tokens. Secrets are answered once, at creation, and stored hashed.
 */
export class ManageAccountsUseCase {
  private readonly clock: () => number;

  constructor(
    private readonly repositories: Pick<Repositories, 'portals' | 'accounts' | 'credentials'>,
    private readonly options: AccountsOptions,
    private readonly logger: Logger,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  // Portals

  async createPortal(input: { name?: string; pipelineLimit?: number }): Promise<{ portalId: number; apiKey: string }> {
    const portal = await provisionPortal(this.repositories, this.options.crm, this.options.secretBox, input);
    this.logger.info('portal created', { portalId: portal.portalId });
    return { portalId: portal.portalId, apiKey: portal.apiKey };
  }

  async getPortal(portalId: number): Promise<PortalView & { credentials: Credential[]; installs: Install[] }> {
    const portal = await this.portal(portalId);
    const [credentials, installs] = await Promise.all([
      this.repositories.credentials.list({ portalId }),
      this.repositories.accounts.listInstalls({ portalId }),
    ]);
    return { ...portalView(portal), credentials, installs };
  }

  async setPortalActive(portalId: number, active: boolean): Promise<void> {
    if (!(await this.repositories.portals.setActive(portalId, active))) throw AppError.notFound(`No portal ${portalId}`);
    this.logger.info(active ? 'portal enabled' : 'portal disabled', { portalId });
    await this.options.onAccessChanged();
    if (active) await this.options.onPortalEnabled(portalId);
  }

  /** The most deal pipelines the portal's built-in CRM account allows (an install needs one free). */
  async setPipelineLimit(portalId: number, pipelineLimit: number): Promise<void> {
    const portal = await this.portal(portalId);
    await new CrmAdminClient(this.options.crm.baseUrl, this.options.crm.adminToken).ensureAccount(
      portalId,
      this.options.connections.builtinToken(portal),
      pipelineLimit,
    );
  }

  /** The portal's CRM connection, without its secrets. */
  async getCrmConnection(portalId: number): Promise<CrmConnectionView> {
    return this.options.connections.view(await this.portal(portalId));
  }

  /** Sets the portal's CRM connection; every replica drops its clients of the portal at once. */
  async setCrmConnection(portalId: number, input: CrmConnectionInput): Promise<CrmConnectionView> {
    let view: CrmConnectionView | null;
    try {
      view = await this.options.connections.set(portalId, input);
    } catch (error) {
      if (error instanceof CrmConnectionInputError) throw AppError.badRequest(`body/${error.message}`);
      throw error;
    }
    if (!view) throw AppError.notFound(`No portal ${portalId}`);
    this.logger.info('CRM connection set', { portalId, kind: view.kind, authType: view.authType, baseUrl: view.baseUrl });
    await this.options.onAccessChanged();
    return view;
  }

  /** A new portal API key; every earlier one stops working at once. */
  async rotatePortalKey(portalId: number): Promise<{ apiKey: string; credentialId: string }> {
    await this.portal(portalId);
    return this.rotate('portal-key', { portalId });
  }

  async createPrivateAppToken(portalId: number, name: string): Promise<{ token: string; credentialId: string }> {
    await this.portal(portalId);
    const { secret, credential } = await this.repositories.credentials.issue('private-app-token', { portalId, name }, this.clock());
    return { token: secret, credentialId: credential.credentialId };
  }

  // Developers and applications

  async createDeveloper(name?: string): Promise<{ developerId: number; apiKey: string }> {
    const developerId = await this.repositories.accounts.nextId('developerId');
    await this.repositories.accounts.createDeveloper({ developerId, name: name ?? `Developer ${developerId}` });
    const { secret } = await this.repositories.credentials.issue('developer-key', { developerId }, this.clock());
    return { developerId, apiKey: secret };
  }

  async rotateDeveloperKey(developerId: number): Promise<{ apiKey: string; credentialId: string }> {
    await this.developer(developerId);
    return this.rotate('developer-key', { developerId });
  }

  async createApplication(developerId: number, name: string): Promise<{ appId: string; clientId: string; clientSecret: string }> {
    await this.developer(developerId);
    const appId = String(await this.repositories.accounts.nextId('appId'));
    const clientId = newSecret('client');
    const clientSecret = newSecret('secret');
    await this.repositories.accounts.createApplication({
      appId,
      developerId,
      name,
      clientId,
      clientSecret,
      sealedSecret: this.options.secretBox.seal(clientSecret, sealedFor.appClientSecret(appId)),
    });
    return { appId, clientId, clientSecret };
  }

  /** A new client secret; the old one no longer refreshes tokens. */
  async rotateClientSecret(appId: string): Promise<{ clientSecret: string }> {
    const clientSecret = newSecret('secret');
    if (!(await this.repositories.accounts.setClientSecret(appId, clientSecret, this.options.secretBox.seal(clientSecret, sealedFor.appClientSecret(appId)))))
      throw AppError.notFound(`No application ${appId}`);
    return { clientSecret };
  }

  // Installs and OAuth

  /**
   * Installs an application in a portal (the customer's consent, given through the admin API) and
   * answers its first tokens. The application then does its ecommerce install with them.
   */
  async install(portalId: number, appId: string): Promise<TokenPair> {
    await this.portal(portalId);
    await this.application(appId);
    await this.repositories.accounts.install(portalId, appId, this.clock());
    this.logger.info('application installed', { portalId, appId });
    return issueTokens(this.grants(), portalId, appId);
  }

  /** Removes the application from the portal, its tenant's setup and alerts too (app-removal.ts). */
  uninstall(portalId: number, appId: string): Promise<void> {
    return removeApplication(this.repositories, this.options, { portalId, appId });
  }

  /** `grant_type=refresh_token` (oauth-grants.ts). */
  async refresh(clientId: string, clientSecret: string, refreshToken: string): Promise<TokenPair> {
    return refreshGrant(this.grants(), { clientId, clientSecret, refreshToken });
  }

  // Credentials

  async listCredentials(filter: { portalId?: number; developerId?: number; appId?: string }): Promise<Credential[]> {
    if (filter.portalId === undefined && filter.developerId === undefined && filter.appId === undefined) {
      throw AppError.badRequest('Give portalId, developerId or appId to list credentials');
    }
    return this.repositories.credentials.list(filter);
  }

  async revoke(credentialId: string): Promise<void> {
    const revoked = await this.repositories.credentials.revoke(credentialId);
    if (!revoked) throw AppError.notFound(`No credential ${credentialId}`);
    this.logger.info('credential revoked', { credentialId, kind: revoked.kind });
    await this.options.onAccessChanged();
  }

  private grants(): GrantContext {
    return grantContext({ repositories: this.repositories, clock: this.clock, logger: this.logger }, this.options);
  }

  private async rotate(kind: Extract<CredentialKind, 'portal-key' | 'developer-key'>, owner: { portalId: number } | { developerId: number }) {
    const { credentials } = this.repositories;
    // The database orders rotations (decision 8, addendum of 2026-12-08): the keys of generations
    // below this one's go. Of two rotations at once, the earlier one's key is revoked by the later
    // one, or, stored after that revoke, by itself once it sees the later one's key: never both (a
    // later rotation that failed before storing its key leaves this one's).
    const generation = await credentials.nextKeyGeneration(kind, owner);
    const { secret, credential } = await credentials.issue(kind, { ...owner, generation }, this.clock());
    await credentials.revokeWhere({ ...owner, kinds: [kind] }, credential.credentialId, { generationBelow: generation });
    const superseded = await credentials.hasKeyAbove(kind, owner, generation);
    if (superseded) await credentials.revoke(credential.credentialId);
    await this.options.onAccessChanged();
    if (superseded)
      throw AppError.conflict('Another rotation of this key ran at the same time and its key replaced this one: use the key it answered, or rotate again');
    return { apiKey: secret, credentialId: credential.credentialId };
  }

  private async portal(portalId: number): Promise<Portal> {
    const portal = await this.repositories.portals.findById(portalId);
    if (!portal) throw AppError.notFound(`No portal ${portalId}`);
    return portal;
  }

  private async developer(developerId: number): Promise<Developer> {
    const developer = await this.repositories.accounts.findDeveloper(developerId);
    if (!developer) throw AppError.notFound(`No developer ${developerId}`);
    return developer;
  }

  private async application(appId: string): Promise<Application> {
    const application = await this.repositories.accounts.findApplication(appId);
    if (!application) throw AppError.notFound(`No application ${appId}`);
    return application;
  }
}

export { oauthError, type TokenPair } from './oauth-grants';
