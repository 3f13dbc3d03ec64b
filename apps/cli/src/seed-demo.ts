import { CrmConnections } from '@ecomm-sync/crm-client';
import { SecretBox, type Repositories } from '@ecomm-sync/data-access';
import { prepareSyncReadyPortal, provisionPortal } from '@ecomm-sync/provisioning';

/** Idempotent: the demo portal with its CRM account, the ecommerce setup, store `default`, enabled settings. */
export async function seedDemo(
  repositories: Repositories,
  config: {
    CRM_BASE_URL: string;
    ADMIN_TOKEN: string;
    SECRETS_KEY: string;
    SECRETS_PREVIOUS_KEYS?: string;
    DEMO_PORTAL_ID: number;
    DEMO_API_KEY: string;
    DEMO_CRM_TOKEN: string;
  },
): Promise<void> {
  const secretBox = SecretBox.fromConfig(config);
  if (!(await repositories.portals.findById(config.DEMO_PORTAL_ID))) {
    await provisionPortal(repositories, { baseUrl: config.CRM_BASE_URL, adminToken: config.ADMIN_TOKEN }, secretBox, {
      portalId: config.DEMO_PORTAL_ID,
      name: 'Demo portal',
      apiKey: config.DEMO_API_KEY,
      crmToken: config.DEMO_CRM_TOKEN,
    });
  } else if (!(await repositories.credentials.resolve(config.DEMO_API_KEY))) {
    // Data kept from an earlier run whose key was rotated or revoked: the demo key works again.
    await repositories.credentials.issue('portal-key', { portalId: config.DEMO_PORTAL_ID }, Date.now(), config.DEMO_API_KEY);
  }
  const connections = new CrmConnections({ portals: repositories.portals, secretBox, builtinBaseUrl: config.CRM_BASE_URL });
  // Data kept from before decision 22 holds the CRM token in clear: seal it now.
  await connections.sealPlaintextTokens();
  const portal = (await repositories.portals.findById(config.DEMO_PORTAL_ID))!;
  await prepareSyncReadyPortal(repositories, connections.clientFor(portal), config.DEMO_PORTAL_ID);
}
