import type { MappedChangesMessage } from '@ecomm-sync/contracts';
import { withoutOversizedState } from '@ecomm-sync/domain';
import type { SplitBody } from '@ecomm-sync/messaging';

/**
 * Smaller messages of a mapped-changes message too large for the broker (an object's message
 * carries its whole mapped state: 200 products of 100 KB each pass 16 MiB). Each change stands
 * alone (the applier orders them by revision), so two halves are applied as the whole would be.
 * A single change still too large is sent without its state and with a blocking error
 * (withoutOversizedState): that object gets an error record, and the rest of the batch or page
 * is applied.
 */
export const halveMappedChanges: SplitBody = (body, bytes, maxBytes) => {
  const message = body as MappedChangesMessage;
  if (message.changes.length === 0) return null;
  if (message.changes.length === 1) {
    const carried = withoutOversizedState(message.objectType, message.changes[0]!, bytes, maxBytes);
    return carried ? [{ ...message, changes: [carried] }] : null;
  }
  const middle = Math.ceil(message.changes.length / 2);
  return [
    { ...message, changes: message.changes.slice(0, middle) },
    { ...message, changes: message.changes.slice(middle) },
  ];
};
