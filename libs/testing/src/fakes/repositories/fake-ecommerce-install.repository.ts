import type { Tenant } from '@ecomm-sync/contracts';
import type { EcommerceInstall, EcommerceInstallRepository } from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

const NOT_INSTALLED: EcommerceInstall = { installCompleted: false, dashboardInstalled: false, workflowsEnabled: false, installedAt: null, uninstalledAt: null };

const tenantKey = (tenant: Tenant) => keyOf(tenant.portalId, tenant.appId);

/** EcommerceInstallRepository in memory: the install state of each tenant. */
export class FakeEcommerceInstallRepository implements PublicOf<EcommerceInstallRepository> {
  private readonly installs = new Map<string, { portalId: number; install: EcommerceInstall }>();
  /** Tenants whose import on install is pending (the real one's `importOnInstallPending`). */
  private readonly importPending = new Set<string>();

  async find(tenant: Tenant): Promise<EcommerceInstall> {
    return copy(this.installs.get(tenantKey(tenant))?.install ?? NOT_INSTALLED);
  }

  async markInstalled(tenant: Tenant, now: number, { importOnInstall = false }: { importOnInstall?: boolean } = {}): Promise<boolean> {
    // Read and written in one turn, as the real one does in one write: of two at once, one installs.
    const existing = this.installs.get(tenantKey(tenant))?.install ?? NOT_INSTALLED;
    this.installs.set(tenantKey(tenant), {
      portalId: tenant.portalId,
      install: {
        ...existing,
        installCompleted: true,
        dashboardInstalled: true,
        workflowsEnabled: true,
        installedAt: existing.installCompleted ? existing.installedAt : now,
        uninstalledAt: null,
      },
    });
    if (!existing.installCompleted && importOnInstall) this.importPending.add(tenantKey(tenant));
    return !existing.installCompleted;
  }

  async takeImportOnInstall(tenant: Tenant): Promise<boolean> {
    return this.importPending.delete(tenantKey(tenant));
  }

  async giveBackImportOnInstall(tenant: Tenant): Promise<void> {
    if (this.installs.get(tenantKey(tenant))?.install.installCompleted) this.importPending.add(tenantKey(tenant));
  }

  async markUninstalled(tenant: Tenant, now: number): Promise<void> {
    const existing = await this.find(tenant);
    this.importPending.delete(tenantKey(tenant));
    this.installs.set(tenantKey(tenant), {
      portalId: tenant.portalId,
      install: { ...existing, installCompleted: false, workflowsEnabled: false, uninstalledAt: now },
    });
  }

  async portalsWithWorkflows(): Promise<number[]> {
    return [...new Set([...this.installs.values()].filter(({ install }) => install.workflowsEnabled).map(({ portalId }) => portalId))];
  }
}
