import { createValidator, syncBatchMessageSchema } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { setAsideErrors } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';

const validateSyncBatch = createValidator(syncBatchMessageSchema, 'message');

/**
 * An accepted batch is about to be dead-lettered before it was merged: each of its objects gets an
 * open UNKNOWN_ERROR saying so and how it gets applied (redrive); merging that batch later resolves
 * the error. Idempotent. A failure here keeps the
 * batch out of the dead-letter queue (it is retried), so nothing accepted is set aside unseen.
 */
export class RecordSetAsideUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'syncErrors'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async execute(body: unknown, attempts: number, error: Error): Promise<void> {
    const parsed = validateSyncBatch(body);
    if (!parsed.ok) {
      this.logger.error('a malformed message was dead-lettered', { queue: 'mapper.sync-batches', error: error.message });
      return;
    }
    const batch = parsed.value;
    const { objectType, messages, receivedAt } = batch;
    // Not merged yet: recorded at revision 0, below every merged revision.
    const objects = messages.map((message) => ({ ...message, rev: 0, settingsRev: 0, changedAt: message.changedAt ?? receivedAt }));
    const at = { queue: 'mapper.sync-batches', attempts, lastError: error.message, at: this.clock() };
    // Reopened when recorded before: every set-aside error of an object has this key, and one that
    // was resolved (its first batch applied) must not hide a later batch set aside. The object's
    // other errors stay as they are: nothing of it was processed. Only this batch's merge resolves
    // the error (ProcessSyncBatchUseCase), not a later batch's sync: this one's data never came.
    const errors = setAsideErrors(objectType, objects, at).map((error) => ({ ...error, setAsideBatchId: batch.batchId }));
    await this.repositories.syncErrors.record(batch, errors, { reopen: true, resolveOthers: false });
  }
}
