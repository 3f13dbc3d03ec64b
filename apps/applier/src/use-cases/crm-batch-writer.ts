import type { MappedChange } from '@ecomm-sync/contracts';
import { CrmPartialFailure, CrmRequestError } from '@ecomm-sync/crm-client';

/**
 * Sends a batch. When the CRM answers 207 naming the inputs it refused, only those fail, each
 * with the CRM's reason in `failures` (the caller's `send` takes the written objects from the
 * error). When it refuses the whole batch for one input (a 4xx other than 429), or a 207 does not
 * say which inputs, the batch is split in halves, and halves of the half that is refused again, so
 * that the others are written and only the faulty ones fail: one bad input in 100 costs about 14
 * requests, not 100. Retriable failures are thrown: the caller's whole group waits or is retried.
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
    const half = Math.ceil(items.length / 2);
    await sendIsolated(items.slice(0, half), send, failures);
    await sendIsolated(items.slice(half), send, failures);
  }
}
