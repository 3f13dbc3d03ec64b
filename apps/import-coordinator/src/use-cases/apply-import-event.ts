import { CAS_LOST, COMPARE_AND_SET_RETRY, retryCompareAndSet, type ImportRecord, type Repositories } from '@ecomm-sync/data-access';
import { importTransition, type ImportEffect, type ImportEvent } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';

/**
 * One event on one import: read it, let the import machine decide, write by compare-and-set; a
 * write that lost to another (a gateway counting pages) is decided again on a fresh read. Null
 * when there is no such import. A refusal is a defect here, and so is losing every round: both
 * throw, and the message is retried.
 */
export async function applyImportEvent(
  imports: Repositories['imports'],
  logger: Pick<Logger, 'warn'>,
  importId: string,
  event: ImportEvent,
): Promise<{ record: ImportRecord; effects: ImportEffect[] } | null> {
  const outcome = await retryCompareAndSet(async () => {
    const found = await imports.findById(importId);
    if (!found) return null;
    const transition = importTransition(found, event);
    if ('refused' in transition) throw new Error(`import ${importId} refused ${event.kind}: ${transition.refused.message}`);
    const { next, effects } = transition;
    if (next === found || (await imports.compareAndSet(importId, found.rev, next))) return { record: next, effects };
    return CAS_LOST;
  });
  if (outcome === CAS_LOST) throw new Error(`import ${importId} was changed by others in each of ${COMPARE_AND_SET_RETRY.rounds} tries of ${event.kind}`);
  for (const effect of outcome?.effects ?? []) {
    if (effect.kind === 'report-failure') logger.warn('import failed', { importId, reason: effect.reason });
    if (effect.kind === 'report-webhook-problem')
      logger.warn('import webhook problem after pages arrived; the import goes on', { importId, reason: effect.reason });
  }
  return outcome;
}
