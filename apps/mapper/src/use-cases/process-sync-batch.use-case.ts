import { type InboundMessage, type MappedChange, type MappedChangesMessage, type SyncBatchMessage, TOPICS } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { emptyObjectState, mapObject, mergeMessages, type RawObjectState } from '@ecomm-sync/domain';
import { halveMappedChanges } from './split-mapped-changes';
import type { Broker } from '@ecomm-sync/messaging';

const MAX_MERGE_ROUNDS = 10;

/**
 * One accepted batch: keep every message as received, merge each object's messages into its
 * stored state, map the states with the settings in force, and publish the mapped states.
 * Every step is idempotent, so a redelivered batch changes nothing and publishes the same states.
 */
export class ProcessSyncBatchUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'rawMessages' | 'objectStates' | 'settings' | 'syncErrors'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * `triedBefore`: the batch may have been set aside before (retried, delivered again or redriven):
   * once merged, the errors that said so are resolved. A first delivery skips that round trip.
   */
  async execute(batch: SyncBatchMessage, { triedBefore = false }: { triedBefore?: boolean } = {}): Promise<void> {
    await this.repositories.rawMessages.append(batch);
    const states = await this.mergeIntoStates(batch);
    const settings = await this.repositories.settings.get(batch.tenant);
    const changes: MappedChange[] = [...states].map(([externalObjectId, { state, rev }]) => ({
      externalObjectId,
      rev,
      ...mapObject(batch.objectType, externalObjectId, state, settings),
    }));
    const message: MappedChangesMessage = { tenant: batch.tenant, storeId: batch.storeId, objectType: batch.objectType, changes };
    await this.broker.publish(`${TOPICS.mappedChanges}.${batch.objectType}`, message, { split: halveMappedChanges });
    if (triedBefore) await this.repositories.syncErrors.resolveSetAside(batch, batch.batchId, [...states.keys()], this.clock());
  }

  /** Optimistic concurrency: merge onto what was read, write if still current, else merge again. */
  private async mergeIntoStates(batch: SyncBatchMessage): Promise<Map<string, { state: RawObjectState; rev: number }>> {
    const byObject = new Map<string, InboundMessage[]>();
    for (const message of batch.messages) {
      const list = byObject.get(message.externalObjectId) ?? [];
      list.push(message);
      byObject.set(message.externalObjectId, list);
    }
    const result = new Map<string, { state: RawObjectState; rev: number }>();
    let pending = [...byObject.keys()];
    for (let round = 0; round < MAX_MERGE_ROUNDS && pending.length > 0; round++) {
      const stored = await this.repositories.objectStates.findMany(batch, pending);
      const writes = [];
      for (const id of pending) {
        const current = stored.get(id);
        const merged = mergeMessages(current?.state ?? emptyObjectState(), byObject.get(id)!, batch.receivedAt);
        if (merged.changed || !current) writes.push({ externalObjectId: id, state: merged.state, expectedRev: current?.rev ?? null });
        else result.set(id, { state: current.state, rev: current.rev });
      }
      const { saved, conflicts } = await this.repositories.objectStates.saveMany(batch, writes);
      for (const write of writes) {
        const rev = saved.get(write.externalObjectId);
        if (rev !== undefined) result.set(write.externalObjectId, { state: write.state, rev });
      }
      pending = conflicts;
    }
    if (pending.length > 0) throw new Error(`objects ${pending.slice(0, 5).join(', ')} kept changing under concurrent writers; will retry`);
    return result;
  }
}
