import type { Tenant } from '@ecomm-sync/contracts';
import { CrmPartialFailure, sendingFor, type CrmPort } from '@ecomm-sync/crm-client';
import type { PendingCheckout } from '@ecomm-sync/data-access';
import { ABANDONED_STAGE } from '@ecomm-sync/domain';
import { sendIsolatedBy, type CrmRefusal } from './crm-batch-writer';

/**
 * Moves a tenant's due deals to the abandoned stage. Deals the CRM refuses on their merits (a 207's
 * inputs, or a batch refused whole for one of them, split in halves down to it: sendIsolatedBy) are
 * in `refused` and stay due; the others move. `failure`: the CRM could not take requests (a wait,
 * refused credentials, no answer), and what was not moved stays due.
 */
export async function moveToAbandoned(
  crm: CrmPort,
  tenant: Tenant,
  deals: PendingCheckout[],
): Promise<{ moved: Set<number>; refused: Map<PendingCheckout, CrmRefusal>; failure: unknown }> {
  const moved = new Set<number>();
  const refused = new Map<PendingCheckout, CrmRefusal>();
  const send = async (part: PendingCheckout[]) => {
    try {
      await sendingFor(tenant, () =>
        crm.batchUpdate(
          'DEAL',
          part.map((checkout) => ({ id: checkout.crmId, properties: { dealstage: ABANDONED_STAGE } })),
        ),
      );
      for (const checkout of part) moved.add(checkout.crmId);
    } catch (error) {
      if (error instanceof CrmPartialFailure) for (const deal of error.results) moved.add(deal.id);
      throw error;
    }
  };
  try {
    await sendIsolatedBy(deals, (checkout) => checkout, send, refused);
    return { moved, refused, failure: null };
  } catch (failure) {
    return { moved, refused, failure };
  }
}
