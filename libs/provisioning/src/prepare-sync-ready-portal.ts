import { DEFAULT_STORE_ID, type ObjectType, type PropertyMapping } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { installEcommerceFor } from './install-ecommerce';

const same = (name: string, dataType: PropertyMapping['dataType'] = 'STRING'): PropertyMapping => ({
  externalPropertyName: name,
  crmPropertyName: name,
  dataType,
});

/** The demo portal's mappings (README): sender names equal to the CRM names. */
export const DEMO_MAPPINGS: Record<ObjectType, PropertyMapping[]> = {
  CONTACT: [same('email'), same('firstname'), same('lastname')],
  PRODUCT: [same('name'), same('price', 'NUMBER')],
  DEAL: [same('dealname'), same('amount', 'NUMBER'), same('dealstage'), same('closedate', 'DATETIME'), same('hs_assoc__contact_ids')],
  // The line item's name: the report's top products are named by it.
  LINE_ITEM: [same('name'), same('quantity', 'NUMBER'), same('price', 'NUMBER'), same('hs_assoc__deal_id'), same('hs_assoc__product_id')],
};

/**
 * Makes a direct-mode portal ready to sync (what a v1 install does): the ecommerce setup in its CRM, the install record, the store `default`
 * and enabled settings with the given mappings. Idempotent.
 */
export async function prepareSyncReadyPortal(
  repositories: Pick<Repositories, 'stores' | 'settings' | 'ecommerceInstalls' | 'portals'>,
  /** The portal's CRM (CrmConnections.clientFor). */
  crm: CrmPort,
  portalId: number,
  mappings: Partial<Record<ObjectType, PropertyMapping[]>> = DEMO_MAPPINGS,
): Promise<void> {
  const tenant = { portalId, appId: null };
  const portal = await repositories.portals.findById(portalId);
  if (!portal) throw new Error(`No portal ${portalId}`);
  await installEcommerceFor(repositories.portals, crm, portal);
  await repositories.ecommerceInstalls.markInstalled(tenant, Date.now());
  await repositories.stores.upsert(tenant, { id: DEFAULT_STORE_ID, label: 'Custom' });
  await repositories.settings.put(tenant, { enabled: true, importOnInstall: false, webhookUri: null, mappings });
}
