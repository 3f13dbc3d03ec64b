import type { Repositories } from '@ecomm-sync/data-access';
import { prepareSyncReadyPortal, provisionPortal } from '@ecomm-sync/provisioning';

/** Idempotent: the demo portal with its CRM account, the ecommerce setup, store `default`, enabled settings. */
export async function seedDemo(
  repositories: Repositories,
  config: { CRM_BASE_URL: string; ADMIN_TOKEN: string; DEMO_PORTAL_ID: number; DEMO_API_KEY: string; DEMO_CRM_TOKEN: string },
): Promise<void> {
  if (!(await repositories.portals.findById(config.DEMO_PORTAL_ID))) {
    await provisionPortal(
      repositories,
      { baseUrl: config.CRM_BASE_URL, adminToken: config.ADMIN_TOKEN },
      { portalId: config.DEMO_PORTAL_ID, name: 'Demo portal', apiKey: config.DEMO_API_KEY, crmToken: config.DEMO_CRM_TOKEN },
    );
  } else if (!(await repositories.credentials.resolve(config.DEMO_API_KEY))) {
    // Data kept from an earlier run whose key was rotated or revoked: the demo key works again.
    await repositories.credentials.issue('portal-key', { portalId: config.DEMO_PORTAL_ID }, Date.now(), config.DEMO_API_KEY);
  }
  await prepareSyncReadyPortal(repositories, { baseUrl: config.CRM_BASE_URL, token: config.DEMO_CRM_TOKEN }, config.DEMO_PORTAL_ID);
}
