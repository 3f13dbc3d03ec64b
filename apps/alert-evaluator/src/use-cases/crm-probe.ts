import { type CrmConnections, CrmRequestError } from '@ecomm-sync/crm-client';
import type { PortalRepository } from '@ecomm-sync/data-access';

/**
 * The CRM connection rule's probe: one cheap read (the deal pipelines) through the portal's CRM
 * connection and its account's shared budget. 401 or 403: the CRM refuses the token (revoked or
 * refused); anything else it cannot tell ('unknown': waits, timeouts, the budget) is left to the
 * CRM wait the applier records.
 */
export function crmProbe(portals: Pick<PortalRepository, 'findById'>, connections: Pick<CrmConnections, 'clientFor'>) {
  return async (portalId: number): Promise<'refused' | 'ok' | 'unknown'> => {
    const portal = await portals.findById(portalId);
    if (!portal) return 'unknown';
    try {
      await connections.clientFor(portal).listDealPipelines();
      return 'ok';
    } catch (error) {
      return error instanceof CrmRequestError && (error.status === 401 || error.status === 403) ? 'refused' : 'unknown';
    }
  };
}
