import type { MappedChange } from '@ecomm-sync/contracts';
import { CrmPartialFailure, CrmRequestError } from '@ecomm-sync/crm-client';

/**
 * Sends a batch. When the CRM answers 207 naming the inputs it refused, only those fail, each
 * with the CRM's reason in `failures` (the caller's `send` takes the written objects from the
 * error). When it refuses the whole batch (a 4xx other than 429), or a 207 does not say which
 * inputs, the items are sent one by one so that only the faulty ones fail. Retriable failures are
 * thrown: the caller's whole group waits or is retried.
 */
export async function sendIsolated<T extends { change: MappedChange }>(
  items: T[],
  send: (chunk: T[]) => Promise<unknown>,
  failures: Map<MappedChange, string>,
): Promise<void> {
  if (items.length === 0) return;
  try {
    await send(items);
  } catch (error) {
    if (error instanceof CrmPartialFailure && error.failures.every((failure) => failure.index >= 0 && failure.index < items.length)) {
      for (const failure of error.failures) failures.set(items[failure.index].change, failure.message);
      return;
    }
    if (!(error instanceof CrmRequestError) || error.retriable) throw error;
    if (items.length === 1) {
      failures.set(items[0].change, error.message);
      return;
    }
    for (const item of items) await sendIsolated([item], send, failures);
  }
}
