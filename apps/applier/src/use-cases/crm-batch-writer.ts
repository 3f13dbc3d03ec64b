import type { CrmAnswer, MappedChange } from '@ecomm-sync/contracts';
import { CrmPartialFailure, CrmRequestError } from '@ecomm-sync/crm-client';

/**
 * Sends a batch. When the CRM answers 207 naming the inputs it refused, only those fail, each
 * with the CRM's reason in `failures` (the caller's `send` takes the written objects from the
 * error). When it refuses the whole batch for one input (a 4xx other than 429), or a 207 does not
 * say which inputs, the batch is split in halves, and halves of the half that is refused again, so
 * that the others are written and only the faulty ones fail: one bad input in 100 costs about 14
 * requests, not 100. Retriable failures, and credentials the CRM refuses, are thrown: the caller's
 * whole group waits or is retried.
 */
/** Why the CRM refused an input: its message, and its status, category and correlation id for the error record. */
export interface CrmRefusal {
  message: string;
  crm: CrmAnswer;
}

/** The CRM's own words of a refusal, without the fields it did not give. */
function answerOf({ status, category, correlationId }: { status?: number; category?: string; correlationId?: string }): CrmAnswer {
  return { ...(status ? { status } : {}), ...(category ? { category } : {}), ...(correlationId ? { correlationId } : {}) };
}

export async function sendIsolated<T extends { change: MappedChange }>(
  items: T[],
  send: (chunk: T[]) => Promise<unknown>,
  failures: Map<MappedChange, CrmRefusal>,
): Promise<void> {
  await sendIsolatedBy(items, (item) => item.change, send, failures);
}

/** sendIsolated for items of any kind: each refusal is set in `failures` under the item's key (`keyOf`). */
export async function sendIsolatedBy<T, K>(
  items: T[],
  keyOf: (item: T) => K,
  send: (chunk: T[]) => Promise<unknown>,
  failures: Map<K, CrmRefusal>,
): Promise<void> {
  if (items.length === 0) return;
  try {
    await send(items);
  } catch (error) {
    if (error instanceof CrmPartialFailure && error.failures.every((failure) => failure.index >= 0 && failure.index < items.length)) {
      for (const failure of error.failures)
        failures.set(keyOf(items[failure.index]), {
          message: failure.message,
          crm: answerOf({ category: failure.category, correlationId: error.correlationId }),
        });
      return;
    }
    // Credentials the CRM refuses refuse every input alike: the whole group waits (crmWaitCauseOf).
    if (!(error instanceof CrmRequestError) || error.retriable || error.refusesCredentials) throw error;
    if (items.length === 1) {
      // One input refused in a 207 that did not say which: the CRM's own words for it, not the 207's.
      const [own] = error instanceof CrmPartialFailure ? error.failures : [];
      failures.set(
        keyOf(items[0]),
        own
          ? { message: own.message, crm: answerOf({ category: own.category, correlationId: error.correlationId }) }
          : { message: error.message, crm: answerOf(error) },
      );
      return;
    }
    const half = Math.ceil(items.length / 2);
    await sendIsolatedBy(items.slice(0, half), keyOf, send, failures);
    await sendIsolatedBy(items.slice(half), keyOf, send, failures);
  }
}
