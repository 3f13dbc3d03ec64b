import type { ObjectType, PropertyMapping } from '@ecomm-sync/contracts';
import { DEFAULT_STORE_ID } from '@ecomm-sync/contracts';
import { HttpCrmClient } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { installEcommerce, provisionPortal } from '@ecomm-sync/provisioning';

const same = (name: string, dataType: PropertyMapping['dataType'] = 'STRING'): PropertyMapping => ({ externalPropertyName: name, crmPropertyName: name, dataType });

/** The demo portal's mappings (README): sender names equal to the CRM names. */
export const DEMO_MAPPINGS: Record<ObjectType, PropertyMapping[]> = {
  CONTACT: [same('email'), same('firstname'), same('lastname')],
  PRODUCT: [same('name'), same('price', 'NUMBER')],
  DEAL: [same('dealname'), same('amount', 'NUMBER'), same('dealstage'), same('closedate', 'DATETIME'), same('hs_assoc__contact_ids')],
  LINE_ITEM: [same('quantity', 'NUMBER'), same('price', 'NUMBER'), same('hs_assoc__deal_id'), same('hs_assoc__product_id')],
};

/** Idempotent: the demo portal with its CRM account, the ecommerce setup, store `default`, enabled settings. */
export async function seedDemo(
  repositories: Repositories,
  config: { CRM_BASE_URL: string; ADMIN_TOKEN: string; DEMO_PORTAL_ID: number; DEMO_API_KEY: string; DEMO_CRM_TOKEN: string },
): Promise<void> {
  const tenant = { portalId: config.DEMO_PORTAL_ID, appId: null };
  if (!(await repositories.portals.findById(config.DEMO_PORTAL_ID))) {
    await provisionPortal(
      repositories,
      { baseUrl: config.CRM_BASE_URL, adminToken: config.ADMIN_TOKEN },
      { portalId: config.DEMO_PORTAL_ID, name: 'Demo portal', apiKey: config.DEMO_API_KEY, crmToken: config.DEMO_CRM_TOKEN },
    );
  }
  await installEcommerce(new HttpCrmClient({ baseUrl: config.CRM_BASE_URL, token: config.DEMO_CRM_TOKEN }));
  await repositories.stores.upsert(tenant, { id: DEFAULT_STORE_ID, label: 'Custom' });
  await repositories.settings.put(tenant, { enabled: true, importOnInstall: false, webhookUri: null, mappings: DEMO_MAPPINGS });
}
