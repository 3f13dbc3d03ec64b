import type { Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import { ecommerceInstallModel } from '../models/ecommerce-install.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

export interface EcommerceInstall {
  installCompleted: boolean;
  dashboardInstalled: boolean;
  workflowsEnabled: boolean;
  installedAt: number | null;
  uninstalledAt: number | null;
}

const NOT_INSTALLED: EcommerceInstall = { installCompleted: false, dashboardInstalled: false, workflowsEnabled: false, installedAt: null, uninstalledAt: null };

/** Install state per tenant (portal direct mode, or application in a portal). */
export class EcommerceInstallRepository {
  private readonly installs;

  constructor(connection: Connection) {
    this.installs = ecommerceInstallModel(connection);
  }

  async find(tenant: Tenant): Promise<EcommerceInstall> {
    const doc = await this.installs.findOne({ portalId: tenant.portalId, appId: tenant.appId }).lean<EcommerceInstall>();
    return doc
      ? {
          installCompleted: doc.installCompleted,
          dashboardInstalled: doc.dashboardInstalled,
          workflowsEnabled: doc.workflowsEnabled,
          installedAt: doc.installedAt ?? null,
          uninstalledAt: doc.uninstalledAt ?? null,
        }
      : NOT_INSTALLED;
  }

  /**
   * Install done: properties, pipeline, the dashboard and the workflows. Keeps the first install
   * date. True when this call installed the tenant (it was not installed); false when it already
   * was: of two installs at once, one reads true. A v1 install (`importOnInstall`) that installs
   * the tenant makes its import on install pending (takeImportOnInstall); a v2 store's does not.
   */
  async markInstalled(tenant: Tenant, now: number, { importOnInstall = false }: { importOnInstall?: boolean } = {}): Promise<boolean> {
    const key = { portalId: tenant.portalId, appId: tenant.appId };
    const set = { installCompleted: true, dashboardInstalled: true, workflowsEnabled: true, uninstalledAt: null };
    const installed = await this.installs.collection
      .updateOne({ ...key, installCompleted: { $ne: true } }, { $set: { ...set, installedAt: now, importOnInstallPending: importOnInstall } }, { upsert: true })
      .then(() => true)
      .catch((error: unknown) => {
        // The tenant's document exists and is installed: the upsert's insert collided with it.
        if (onlyDuplicateKeyErrors(error)) return false;
        throw error;
      });
    if (!installed) await this.installs.collection.updateOne(key, { $set: set });
    return installed;
  }

  /**
   * Takes the import on install an install made pending: true for one caller once (of installs sent
   * again or at once, one starts it); an install that failed after the tenant was installed leaves
   * it pending for the install sent again.
   */
  async takeImportOnInstall(tenant: Tenant): Promise<boolean> {
    const result = await this.installs.collection.updateOne(
      { portalId: tenant.portalId, appId: tenant.appId, importOnInstallPending: true },
      { $set: { importOnInstallPending: false } },
    );
    return result.modifiedCount === 1;
  }

  /** Makes a taken import on install pending again (it could not start): the install sent again tries it. */
  async giveBackImportOnInstall(tenant: Tenant): Promise<void> {
    await this.installs.collection.updateOne(
      { portalId: tenant.portalId, appId: tenant.appId, installCompleted: true },
      { $set: { importOnInstallPending: true } },
    );
  }

  /** Syncing off, workflows off (the dashboard stays: it only reads). */
  async markUninstalled(tenant: Tenant, now: number): Promise<void> {
    await this.installs.updateOne(
      { portalId: tenant.portalId, appId: tenant.appId },
      { $set: { installCompleted: false, workflowsEnabled: false, uninstalledAt: now, importOnInstallPending: false } },
      { upsert: true },
    );
  }

  /** Portals with at least one tenant whose workflows run. */
  async portalsWithWorkflows(): Promise<number[]> {
    return (await this.installs.distinct('portalId', { workflowsEnabled: true })) as number[];
  }
}
