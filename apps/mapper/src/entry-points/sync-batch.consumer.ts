import { createValidator, syncBatchMessageSchema, type SyncBatchMessage } from '@ecomm-sync/contracts';
import type { Broker } from '@ecomm-sync/messaging';
import type { ProcessSyncBatchUseCase } from '../use-cases/process-sync-batch.use-case';
import type { RecordSetAsideUseCase } from '../use-cases/record-set-aside.use-case';

const validateSyncBatch = createValidator(syncBatchMessageSchema, 'message');

/**
 * Failure policy: a message failing its schema is poison (dead-lettered at once); any other
 * failure is transient (retried after the delay, then dead-lettered). Acked after the state is stored
 * and the mapped changes are confirmed by the broker. Before a batch is dead-lettered, each of its
 * objects gets an error record saying so (if that cannot be written, the batch is retried instead),
 * which the batch's merge resolves once it is redriven.
 */
export function startSyncBatchConsumer(
  broker: Broker,
  { processSyncBatch, recordSetAside }: { processSyncBatch: ProcessSyncBatchUseCase; recordSetAside: RecordSetAsideUseCase },
): Promise<void> {
  return broker.consume<SyncBatchMessage>(
    'mapper.sync-batches',
    ({ body, triedBefore }) => processSyncBatch.execute(body, { triedBefore }),
    validateSyncBatch,
    {
      onDeadLetter: ({ body, attempt }, error) => recordSetAside.execute(body, attempt, error),
    },
  );
}
