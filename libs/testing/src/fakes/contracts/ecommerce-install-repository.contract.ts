import type { EcommerceInstallRepository } from '@ecomm-sync/data-access';
import { anAppTenant, aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Installs = PublicOf<EcommerceInstallRepository>;

/** What the use cases rely on from EcommerceInstallRepository; run against the fake and the real one. */
export function describeEcommerceInstallRepositoryContract(name: string, make: () => Installs | Promise<Installs>): void {
  describe(`EcommerceInstallRepository contract: ${name}`, () => {
    let installs: Installs;
    beforeEach(async () => {
      installs = await make();
    });

    it('when a tenant never installed, then it reads as not installed', async () => {
      expect(await installs.find(aTenant())).toEqual({
        installCompleted: false,
        dashboardInstalled: false,
        workflowsEnabled: false,
        installedAt: null,
        uninstalledAt: null,
      });
    });

    it('when a tenant installs, uninstalls and installs again, then the first install date stays and the dashboard outlives the uninstall', async () => {
      const tenant = aTenant();
      await installs.markInstalled(tenant, 100);
      await installs.markInstalled(tenant, 150);
      expect(await installs.find(tenant)).toEqual({
        installCompleted: true,
        dashboardInstalled: true,
        workflowsEnabled: true,
        installedAt: 100,
        uninstalledAt: null,
      });
      await installs.markUninstalled(tenant, 200);
      expect(await installs.find(tenant)).toEqual({
        installCompleted: false,
        dashboardInstalled: true,
        workflowsEnabled: false,
        installedAt: 100,
        uninstalledAt: 200,
      });
      await installs.markInstalled(tenant, 300);
      expect(await installs.find(tenant)).toEqual({
        installCompleted: true,
        dashboardInstalled: true,
        workflowsEnabled: true,
        installedAt: 300,
        uninstalledAt: null,
      });
    });

    it('when a tenant installs, then only the install that found it not installed says so: twice at once, after an uninstall again', async () => {
      const tenant = aTenant();
      expect((await Promise.all([installs.markInstalled(tenant, 100), installs.markInstalled(tenant, 100)])).sort()).toEqual([false, true]);
      expect(await installs.markInstalled(tenant, 150)).toBe(false);
      await installs.markUninstalled(tenant, 200);
      expect(await installs.markInstalled(tenant, 300)).toBe(true);
      expect(await installs.find(tenant)).toMatchObject({ installCompleted: true, installedAt: 300 });
    });

    it('when a tenant installs through v1, then its import on install is taken once; given back it is taken again; after an uninstall the next install makes it pending', async () => {
      const tenant = anAppTenant();
      expect(await installs.takeImportOnInstall(tenant)).toBe(false); // never installed
      await installs.markInstalled(tenant, 100, { importOnInstall: true });
      await installs.markInstalled(tenant, 110, { importOnInstall: true }); // sent again: nothing more pending
      expect(await Promise.all([installs.takeImportOnInstall(tenant), installs.takeImportOnInstall(tenant)])).toEqual(expect.arrayContaining([true, false]));
      expect(await installs.takeImportOnInstall(tenant)).toBe(false);
      await installs.giveBackImportOnInstall(tenant);
      expect(await installs.takeImportOnInstall(tenant)).toBe(true);
      await installs.markUninstalled(tenant, 200);
      await installs.markInstalled(tenant, 300, { importOnInstall: true });
      expect(await installs.takeImportOnInstall(tenant)).toBe(true);
    });

    it('when a tenant installs through a v2 store, or uninstalls with its import on install pending, then none is pending', async () => {
      const [byStore, uninstalled] = [anAppTenant(), anAppTenant()];
      await installs.markInstalled(byStore, 100);
      await installs.markInstalled(byStore, 110, { importOnInstall: true }); // installed already: nothing pending
      await installs.markInstalled(uninstalled, 100, { importOnInstall: true });
      await installs.markUninstalled(uninstalled, 200);
      expect([await installs.takeImportOnInstall(byStore), await installs.takeImportOnInstall(uninstalled)]).toEqual([false, false]);
    });

    it('when an application installs in a portal, then the portal itself and other applications are not installed', async () => {
      const app = anAppTenant();
      await installs.markInstalled(app, 100);
      expect((await installs.find({ portalId: app.portalId, appId: null })).installCompleted).toBe(false);
      expect((await installs.find({ ...app, appId: `${app.appId}-other` })).installCompleted).toBe(false);
      expect((await installs.find(app)).installCompleted).toBe(true);
    });

    it('when tenants install and uninstall, then the portals with running workflows are those with one installed tenant', async () => {
      const [installed, uninstalled, both] = [aTenant(), aTenant(), anAppTenant()];
      await installs.markInstalled(installed, 1);
      await installs.markInstalled(uninstalled, 1);
      await installs.markUninstalled(uninstalled, 2);
      await installs.markInstalled(both, 1);
      await installs.markUninstalled({ portalId: both.portalId, appId: null }, 2);
      const portals = await installs.portalsWithWorkflows();
      expect([installed, uninstalled, both].map((tenant) => portals.filter((portalId) => portalId === tenant.portalId).length)).toEqual([1, 0, 1]);
    });
  });
}
