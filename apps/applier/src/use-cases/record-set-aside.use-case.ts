import { createValidator, mappedChangesMessageSchema, type MappedChangesMessage } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { describeFailure, setAsideReason } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/logger';

const validateMappedChanges = createValidator<MappedChangesMessage>(mappedChangesMessageSchema, 'message');

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
    const { tenant, storeId, objectType, changes } = parsed.value;
    const reason = setAsideReason('applier.mapped-changes', attempts, error.message);
    const now = this.clock();
    await this.repositories.syncErrors.record(
      tenant,
      storeId,
      objectType,
      changes.map((change) => ({
        externalObjectId: change.externalObjectId,
        rev: change.rev,
        settingsRev: change.settingsRev,
        type: 'UNKNOWN_ERROR',
        details: describeFailure(change.action === 'DELETE' ? 'DELETE' : 'UPSERT', objectType, change.externalObjectId, reason),
        changedAt: change.changedAt,
        erroredAt: now,
      })),
    );
  }
}
