import { CrmConnections } from '@ecomm-sync/crm-client';
import { SecretBox, type Repositories } from '@ecomm-sync/data-access';
import { prepareSyncReadyPortal, provisionPortal } from '@ecomm-sync/provisioning';

/**
 * A portal for a first try, ready to sync as the demo portal is: its built-in CRM account, the
 * ecommerce setup, the install record, store `default` and enabled settings with the demo's
 * mappings (README). Its keys: the CRM token stays sealed in the database, an operator never needs it.
 */
export async function createPortal(
  repositories: Repositories,
  config: { CRM_BASE_URL: string; ADMIN_TOKEN: string; SECRETS_KEY: string; SECRETS_PREVIOUS_KEYS?: string },
  name?: string,
): Promise<{ portalId: number; apiKey: string }> {
  const secretBox = SecretBox.fromConfig(config);
  const { portalId, apiKey } = await provisionPortal(repositories, { baseUrl: config.CRM_BASE_URL, adminToken: config.ADMIN_TOKEN }, secretBox, { name });
  const connections = new CrmConnections({ portals: repositories.portals, secretBox, builtinBaseUrl: config.CRM_BASE_URL });
  const portal = (await repositories.portals.findById(portalId))!;
  try {
    await prepareSyncReadyPortal(repositories, connections.clientFor(portal), portalId);
  } catch (error) {
    // The portal and its key exist (only the key's hash is stored): said now, or they are lost.
    throw new Error(
      `portal ${portalId} was created with API key ${apiKey}, but its setup failed: ${error instanceof Error ? error.message : String(error)}. ` +
        'Keep the key (it is not stored in the clear): the portal exists; finish its setup with POST /extensions/ecomm/v1/installs and PUT ' +
        '/extensions/ecomm/v1/settings with that key (README, "Install, uninstall and stores")',
      { cause: error },
    );
  }
  return { portalId, apiKey };
}
