import type { MappedChange } from '@ecomm-sync/contracts';
import { CrmRequestError } from '@ecomm-sync/crm-client';

/**
 * Sends a batch; when the CRM refuses it (a 4xx other than 429), sends the items one by one so
 * that only the faulty ones fail, each with the CRM's reason in `failures`. Retriable failures are
 * thrown: the caller's whole group is retried.
 */
export async function sendIsolated<T extends { change: MappedChange }>(items: T[], send: (chunk: T[]) => Promise<unknown>, failures: Map<MappedChange, string>): Promise<void> {
  if (items.length === 0) return;
  try {
    await send(items);
  } catch (error) {
    if (!(error instanceof CrmRequestError) || error.retriable) throw error;
    if (items.length === 1) {
      failures.set(items[0].change, error.message);
      return;
    }
    for (const item of items) await sendIsolated([item], send, failures);
  }
}
