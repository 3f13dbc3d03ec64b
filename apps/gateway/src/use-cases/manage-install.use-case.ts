import { DEFAULT_STORE_ID, TOPICS, type CatchUpMessage, type LookupsChange, type Tenant } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import { settingsOwner, type Portal, type Repositories, type Store } from '@ecomm-sync/data-access';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { EcommerceInstallError, installEcommerceFor } from '@ecomm-sync/provisioning';

export interface InstallOptions {
  /** The CRM port of a portal, through its connection (CrmConnections.clientFor). */
  crmFor: (portal: Portal) => CrmPort;
  /**
   * The tenant's stores or install changed: every replica drops what it cached of them (nothing of
   * other tenants); `crmSetUp`: the portal's CRM was set up too (pipelines, properties).
   */
  onLookupsChanged: (change: LookupsChange) => Promise<void>;
  /**
   * Called after an install, v1 or a store put (the default alert rules; a v1 install's
   * importOnInstall starts an import there, once per install that installed the tenant).
   */
  onInstalled?: (tenant: Tenant) => Promise<void>;
  /**
   * The application's removal from the portal ran while this install did (its tokens revoked, its
   * tenant cleaned up): what the install wrote afterwards is removed (the alert rules; the stores
   * and the install mark are this use case's own), as the removal would have.
   */
  onRemovedMeanwhile?: (tenant: Tenant) => Promise<void>;
  clock?: () => number;
}

/**
 * The ecommerce install of a tenant (v1 install, or the first v2 store), its uninstall, and v2
 * stores. Installing sets up the portal's CRM (pipeline, properties; shared by every tenant of the
 * portal), marks the dashboard and workflows installed, and releases what was sent before.
 */
export class ManageInstallUseCase {
  private readonly clock: () => number;

  constructor(
    private readonly repositories: Pick<Repositories, 'portals' | 'accounts' | 'ecommerceInstalls' | 'stores' | 'settings' | 'syncErrors'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly options: InstallOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** v1 install: the setup, the store `default` for v1 traffic, the install record. Idempotent. */
  async install(tenant: Tenant): Promise<void> {
    await this.setUp(tenant);
    if (await this.ensureDefaultStore(tenant)) await this.options.onLookupsChanged({ tenant, crmSetUp: true });
    await this.markInstalled(tenant, { importOnInstall: true });
    await this.options.onInstalled?.(tenant);
    await this.checkStillInstalled(tenant);
  }

  /**
   * An application's install or store put runs for seconds (the CRM's setup); its removal may run
   * meanwhile, and clean up before this wrote its stores, mark and alert rules. Read last: if the
   * application's install is gone, what this wrote goes too (the removal also cleans up again after
   * it removed the install, so that one of the two always sees the other), and the caller is told.
   */
  private async checkStillInstalled(tenant: Tenant): Promise<void> {
    if (tenant.appId === null || (await this.repositories.accounts.findInstall(tenant.portalId, tenant.appId))) return;
    await this.uninstall(tenant);
    await this.options.onRemovedMeanwhile?.(tenant);
    throw AppError.notFound(
      `Application ${tenant.appId} was removed from portal ${tenant.portalId} while this request ran; its stores, install and alert rules were removed again`,
    );
  }

  async status(tenant: Tenant): Promise<{ installCompleted: boolean; ecommSettingsEnabled: boolean }> {
    const [install, settings] = await Promise.all([
      this.repositories.ecommerceInstalls.find(tenant),
      this.repositories.settings.getByOwner(settingsOwner(tenant)),
    ]);
    return { installCompleted: install.installCompleted, ecommSettingsEnabled: settings?.enabled ?? false };
  }

  /** Syncing off, workflows off, the tenant's stores deleted. What is sent afterwards is kept (PORTAL_NOT_SYNC_ENABLED). */
  async uninstall(tenant: Tenant): Promise<void> {
    await this.repositories.ecommerceInstalls.markUninstalled(tenant, this.clock());
    await this.repositories.stores.removeAll(tenant);
    await this.options.onLookupsChanged({ tenant, crmSetUp: false });
    this.logger.info('ecommerce uninstalled', { ...tenant });
  }

  /**
   * v2 store upsert. Every store update resets the shared ecommerce pipeline to its defaults; the
   * tenant's first store also does the install. If the setup fails, the store is not saved. Like
   * the v1 install, every put marks the tenant installed (idempotent) and releases what was held:
   * a put sent again after a failed release releases it.
   */
  async putStore(tenant: Tenant, store: Store): Promise<Store> {
    await this.setUp(tenant);
    const saved = await this.repositories.stores.upsert(tenant, store);
    // v1 traffic of an installed tenant goes to `default`: it exists however the tenant installed.
    await this.ensureDefaultStore(tenant);
    await this.options.onLookupsChanged({ tenant, crmSetUp: true }); // a look-up that found no such store is forgotten in every replica
    await this.markInstalled(tenant);
    await this.options.onInstalled?.(tenant);
    await this.checkStillInstalled(tenant);
    return saved;
  }

  async listStores(tenant: Tenant): Promise<Store[]> {
    const stores = await this.repositories.stores.list(tenant);
    if (stores.some((store) => store.id === DEFAULT_STORE_ID)) return stores;
    const made = await this.defaultStoreIfInstalled(tenant);
    return made ? [...stores, made].sort((a, b) => (a.id < b.id ? -1 : 1)) : stores;
  }

  /** The tenant's store, or null; `default` exists for every installed tenant (decision 27). */
  async findStore(tenant: Tenant, storeId: string): Promise<Store | null> {
    const store = await this.repositories.stores.find(tenant, storeId);
    if (store || storeId !== DEFAULT_STORE_ID) return store;
    return this.defaultStoreIfInstalled(tenant);
  }

  async getStore(tenant: Tenant, storeId: string): Promise<Store> {
    const store = await this.findStore(tenant, storeId);
    if (!store) throw AppError.notFound(`No store "${storeId}"; define it with PUT /extensions/ecomm/v2/stores`);
    return store;
  }

  async deleteStore(tenant: Tenant, storeId: string): Promise<void> {
    if (storeId === DEFAULT_STORE_ID && (await this.repositories.ecommerceInstalls.find(tenant)).installCompleted) {
      throw AppError.conflict(
        `The store "${DEFAULT_STORE_ID}" receives v1 traffic and stays while the tenant is installed; uninstall with POST /extensions/ecomm/v1/installs/uninstall to remove it`,
      );
    }
    if (!(await this.repositories.stores.remove(tenant, storeId))) throw AppError.notFound(`No store "${storeId}"`);
    // Its objects are no longer sent to the CRM (decision 13, addendum): their errors would stay open
    // for ever, in the console and in the alert rules that count open errors.
    await this.repositories.syncErrors.resolveStore(tenant, storeId, this.clock());
    await this.options.onLookupsChanged({ tenant, crmSetUp: false });
  }

  private async setUp(tenant: Tenant): Promise<void> {
    const portal = await this.repositories.portals.findById(tenant.portalId);
    if (!portal) throw AppError.notFound(`No portal ${tenant.portalId}`);
    try {
      await installEcommerceFor(this.repositories.portals, this.options.crmFor(portal), portal);
    } catch (error) {
      if (!(error instanceof EcommerceInstallError)) throw error;
      this.logger.warn('ecommerce setup refused', { ...tenant, reason: error.reason, error: error.message });
      throw error.reason === 'crm-failure' ? new AppError(502, error.message) : AppError.conflict(error.message);
    }
  }

  /** `importOnInstall`: a v1 install, whose first makes the import on install pending. */
  private async markInstalled(tenant: Tenant, { importOnInstall = false }: { importOnInstall?: boolean } = {}): Promise<void> {
    // Appliers cache only installed tenants, so nothing cached goes stale here.
    const firstInstall = await this.repositories.ecommerceInstalls.markInstalled(tenant, this.clock(), { importOnInstall });
    const release: CatchUpMessage = { kind: 'catch-up', portalId: tenant.portalId, appId: tenant.appId, errorType: 'PORTAL_NOT_SYNC_ENABLED' };
    await this.broker.publish(TOPICS.catchUp, release);
    this.logger.info('ecommerce installed', { ...tenant, firstInstall });
  }

  /** Makes the store `default` (v1 traffic's) when the tenant has none; true when it made it. */
  private async ensureDefaultStore(tenant: Tenant): Promise<boolean> {
    if (await this.repositories.stores.find(tenant, DEFAULT_STORE_ID)) return false;
    await this.repositories.stores.upsert(tenant, { id: DEFAULT_STORE_ID, label: await this.defaultStoreLabel(tenant) });
    return true;
  }

  /**
   * The store `default` of an installed tenant that has none: tenants that installed through a v2
   * store before the install made it (decision 27) get it on first read. Null when not installed.
   */
  private async defaultStoreIfInstalled(tenant: Tenant): Promise<Store | null> {
    if (!(await this.repositories.ecommerceInstalls.find(tenant)).installCompleted) return null;
    const store: Store = { id: DEFAULT_STORE_ID, label: await this.defaultStoreLabel(tenant) };
    await this.repositories.stores.upsert(tenant, store);
    await this.options.onLookupsChanged({ tenant, crmSetUp: false }); // a look-up that found no such store is forgotten in every replica
    this.logger.info('store default made for an installed tenant that had none', { ...tenant });
    return store;
  }

  /** `Custom` in direct mode, the application's name in application mode (vendor-api-notes.md). */
  private async defaultStoreLabel(tenant: Tenant): Promise<string> {
    if (!tenant.appId) return 'Custom';
    return (await this.repositories.accounts.findApplication(tenant.appId))?.name ?? 'Custom';
  }
}
