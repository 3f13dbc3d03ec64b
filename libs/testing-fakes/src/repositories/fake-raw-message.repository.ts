import type { SyncBatchMessage } from '@ecomm-sync/contracts';
import type { RawMessageRepository } from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';

/** RawMessageRepository in memory: every message of a batch once, by batch id and position. */
export class FakeRawMessageRepository implements PublicOf<RawMessageRepository> {
  /** What was appended, by `<batchId>:<seq>`: tests may read it. */
  readonly messages = new Map<string, { batch: Omit<SyncBatchMessage, 'messages'>; message: SyncBatchMessage['messages'][number] }>();

  async append(batch: SyncBatchMessage): Promise<void> {
    const { messages, ...rest } = batch;
    messages.forEach((message, seq) => {
      const id = `${batch.batchId}:${seq}`;
      if (!this.messages.has(id)) this.messages.set(id, copy({ batch: rest, message }));
    });
  }

  async countForBatch(batchId: string): Promise<number> {
    return [...this.messages.values()].filter(({ batch }) => batch.batchId === batchId).length;
  }
}
