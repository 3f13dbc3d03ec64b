import type { MappedChangesMessage } from '@ecomm-sync/contracts';
import type { SplitBody } from '@ecomm-sync/messaging';

/**
 * Two halves of a mapped-changes message too large for the broker (an object's message carries
 * its whole mapped state: 200 products of 100 KB each pass 16 MiB). Each change stands alone (the
 * applier orders them by revision), so the halves are applied as the whole would be. A single
 * change is not split: its publish fails, and the batch is retried and, in the end, set aside with
 * an error record, as for any failure.
 */
export const halveMappedChanges: SplitBody = (body) => {
  const message = body as MappedChangesMessage;
  if (message.changes.length < 2) return null;
  const middle = Math.ceil(message.changes.length / 2);
  return [
    { ...message, changes: message.changes.slice(0, middle) },
    { ...message, changes: message.changes.slice(middle) },
  ];
};
