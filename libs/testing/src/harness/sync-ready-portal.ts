/** Making a portal ready to sync through the built-in CRM, for the test stack (TestStack.createPortal). */
import axios from 'axios';
import type { CrmConnections } from '@ecomm-sync/crm-client';
import type { Repositories, SecretBox } from '@ecomm-sync/data-access';
import { prepareSyncReadyPortal, provisionPortal } from '@ecomm-sync/provisioning';

export interface TestPortal {
  portalId: number;
  apiKey: string;
  /** The token of the portal's built-in CRM account (stored sealed), for tests that read the CRM directly. */
  crmToken: string;
}

async function createdByGateway(gateway: { url: string; adminToken: string }): Promise<{ portalId: number; apiKey: string }> {
  const headers = { authorization: `Bearer ${gateway.adminToken}` };
  return (await axios.post(`${gateway.url}/admin/v1/portals`, { name: 'test portal' }, { headers })).data as { portalId: number; apiKey: string };
}

/**
 * A portal made through the gateway's admin API (`gateway`), or straight in the database and the
 * built-in CRM when no gateway runs, then made ready to sync: ecommerce setup in its CRM, store
 * `default`, enabled settings (TestStack.createPortal).
 */
export async function createSyncReadyPortal(
  repositories: Repositories,
  connections: CrmConnections,
  secretBox: SecretBox,
  { crm, gateway }: { crm: { baseUrl: string; adminToken: string }; gateway: { url: string; adminToken: string } | null },
): Promise<TestPortal> {
  const { portalId, apiKey } = gateway ? await createdByGateway(gateway) : await provisionPortal(repositories, crm, secretBox);
  const portal = (await repositories.portals.findById(portalId))!;
  await prepareSyncReadyPortal(repositories, connections.clientFor(portal), portalId);
  return { portalId, apiKey, crmToken: connections.builtinToken(portal) };
}
