import { type CrmConnections, CrmRequestError } from '@ecomm-sync/crm-client';
import { connectionVersionOf, type PortalRepository } from '@ecomm-sync/data-access';

export type CrmProbeAnswer = 'refused' | 'ok' | 'unknown';

export interface CrmProbeOptions {
  /** A connection is probed at most once per this time (ALERT_CRM_PROBE_INTERVAL_MS); in between its last answer stands. */
  everyMs: number;
  clock?: () => number;
}

/**
 * The CRM connection rule's probe: one cheap read (the deal pipelines) through the portal's CRM
 * connection and its account's shared budget. 401 or 403: the CRM refuses the token (revoked or
 * refused); anything else it cannot tell ('unknown': waits, timeouts, the budget) is left to the
 * CRM wait the applier records.
 *
 * The budget is the sync's: a connection is probed at most once per `everyMs`, its answer kept in
 * memory meanwhile (per replica, so replicas may each probe once per `everyMs`). A connection set
 * again (a new `changedAt`) is probed afresh. Refusals the applier meets are counted from its
 * error records every evaluation, whatever the probe remembers.
 */
export function crmProbe(portals: Pick<PortalRepository, 'findById'>, connections: Pick<CrmConnections, 'clientFor'>, options: CrmProbeOptions) {
  const { everyMs, clock = Date.now } = options;
  const last = new Map<number, { connection: number; at: number; answer: CrmProbeAnswer }>();
  return async (portalId: number): Promise<CrmProbeAnswer> => {
    const portal = await portals.findById(portalId);
    if (!portal) return 'unknown';
    const connection = connectionVersionOf(portal);
    const now = clock();
    const known = last.get(portalId);
    if (known && known.connection === connection && now - known.at < everyMs) return known.answer;
    let answer: CrmProbeAnswer;
    try {
      await connections.clientFor(portal).listDealPipelines();
      answer = 'ok';
    } catch (error) {
      answer = error instanceof CrmRequestError && error.refusesCredentials ? 'refused' : 'unknown';
    }
    last.set(portalId, { connection, at: now, answer });
    return answer;
  };
}
