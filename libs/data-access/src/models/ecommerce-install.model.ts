import { Schema, type Connection } from 'mongoose';

/**
 * The ecommerce install of a tenant (a portal in direct mode, or an application in a portal): made
 * by the v1 install or by the tenant's first v2 store, undone by the v1 uninstall. Syncing applies
 * only while `installCompleted` (SPEC.md "Install state (v1)").
 */
const ecommerceInstallSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    installCompleted: { type: Boolean, required: true },
    dashboardInstalled: { type: Boolean, required: true },
    workflowsEnabled: { type: Boolean, required: true },
    installedAt: { type: Number, default: null },
    uninstalledAt: { type: Number, default: null },
    /** Set by an install that installed the tenant; taken (cleared) by the one start of the import on install it allows. */
    importOnInstallPending: { type: Boolean, default: false },
  },
  { collection: 'ecommerce_installs', versionKey: false },
);
// Serves: the install state of a tenant (install status, every applied batch).
ecommerceInstallSchema.index({ portalId: 1, appId: 1 }, { unique: true });
// Serves: the portals whose workflows run (the abandoned-checkout sweep).
ecommerceInstallSchema.index({ workflowsEnabled: 1, portalId: 1 });

export const ecommerceInstallModel = (connection: Connection) => connection.model('EcommerceInstall', ecommerceInstallSchema);
