import { createValidator, syncBatchMessageSchema, type SyncBatchMessage } from '@ecomm-sync/contracts';
import type { Broker } from '@ecomm-sync/messaging';
import type { ProcessSyncBatchUseCase } from '../use-cases/process-sync-batch.use-case';

const validateSyncBatch = createValidator<SyncBatchMessage>(syncBatchMessageSchema, 'message');

/**
 * Failure policy: a message failing its schema is poison (dead-lettered at once); any other
 * failure is transient (retried after the delay, then dead-lettered). Acked after the state is stored
 * and the mapped changes are confirmed by the broker.
 */
export function startSyncBatchConsumer(broker: Broker, processSyncBatch: ProcessSyncBatchUseCase): Promise<void> {
  return broker.consume<SyncBatchMessage>('mapper.sync-batches', ({ body }) => processSyncBatch.execute(body), validateSyncBatch);
}
