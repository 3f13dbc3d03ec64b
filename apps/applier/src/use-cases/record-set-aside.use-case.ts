import { createValidator, mappedChangesMessageSchema } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { setAsideErrors } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';

const validateMappedChanges = createValidator(mappedChangesMessageSchema, 'message');

/**
 * A message of mapped changes is about to be dead-lettered: each of its objects gets an open
 * UNKNOWN_ERROR saying so and how it gets applied (redrive); applying it later resolves the error.
 * Idempotent (one record per revision and type). A failure here keeps the message out of the
 * dead-letter queue (it is retried), so nothing is set aside unseen.
 */
export class RecordSetAsideUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'syncErrors'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async execute(body: unknown, attempts: number, error: Error): Promise<void> {
    const parsed = validateMappedChanges(body);
    if (!parsed.ok) {
      // Not ours to read (a message that fails its schema names no object we could report on).
      this.logger.error('a malformed message was dead-lettered', { queue: 'applier.mapped-changes', error: error.message });
      return;
    }
    const message = parsed.value;
    const at = { queue: 'applier.mapped-changes', attempts, lastError: error.message, at: this.clock() };
    await this.repositories.syncErrors.record(message, setAsideErrors(message.objectType, message.changes, at));
  }
}
