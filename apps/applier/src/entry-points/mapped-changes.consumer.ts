import { createValidator, mappedChangesMessageSchema, type MappedChangesMessage } from '@ecomm-sync/contracts';
import type { BatchOptions, Broker } from '@ecomm-sync/messaging';
import { observeSyncLag } from '@ecomm-sync/runtime';
import type { ApplyMappedChangesUseCase } from '../use-cases/apply-mapped-changes.use-case';
import type { RecordSetAsideUseCase } from '../use-cases/record-set-aside.use-case';

const validateMappedChanges = createValidator(mappedChangesMessageSchema, 'message');

/**
 * Collects mapped changes for a short window (or up to the batch size) and applies them together.
 * Failure policy: schema failures are poison (dead-lettered at once); a group that fails (CRM or
 * database unreachable) fails only its own messages, which are retried after the delay. Before a
 * message is dead-lettered, each of its objects gets an error record saying so (if that cannot be
 * written, the message is retried instead). Each applied message's lag since the gateway accepted
 * its data goes to ecomm_sync_lag_seconds.
 */
export function startMappedChangesConsumer(
  broker: Broker,
  { applyMappedChanges, recordSetAside }: { applyMappedChanges: ApplyMappedChangesUseCase; recordSetAside: RecordSetAsideUseCase },
  options: BatchOptions,
): Promise<void> {
  return broker.consumeBatches<MappedChangesMessage>(
    'applier.mapped-changes',
    async (deliveries) => {
      const delivered = new Set(deliveries.flatMap((delivery, index) => (delivery.attempt > 1 || delivery.raw.fields.redelivered ? [index] : [])));
      const failed = await applyMappedChanges.execute(
        deliveries.map((delivery) => delivery.body),
        delivered,
      );
      const appliedAt = Date.now();
      deliveries.forEach(({ body, acceptedAt }, index) => {
        if (acceptedAt !== undefined && !failed.has(index)) observeSyncLag(body.objectType, acceptedAt, appliedAt);
      });
      return [...failed].map((index) => ({ delivery: deliveries[index], error: new Error('applying the changes failed; retrying') }));
    },
    options,
    validateMappedChanges,
    { onDeadLetter: ({ body, attempt }, error) => recordSetAside.execute(body, attempt, error) },
  );
}
