import type { SyncBatchMessage } from '@ecomm-sync/contracts';
import type { ObjectKey, RawMessageRepository, StoredRawMessage } from '@ecomm-sync/data-access';
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

  async listForObject(key: ObjectKey, limit: number): Promise<{ messages: StoredRawMessage[]; hasMore: boolean }> {
    const found = [...this.messages.entries()]
      .filter(
        ([, { batch, message }]) =>
          batch.tenant.portalId === key.portalId &&
          (batch.tenant.appId ?? null) === (key.appId ?? null) &&
          batch.storeId === key.storeId &&
          batch.objectType === key.objectType &&
          message.externalObjectId === key.externalObjectId,
      )
      .map(([id, { batch, message }]) => ({
        seq: Number(id.slice(id.lastIndexOf(':') + 1)),
        stored: {
          action: message.action,
          changedAt: message.changedAt,
          receivedAt: batch.receivedAt,
          source: batch.source,
          properties: { ...message.properties },
          associations: message.associations ?? null,
        },
      }))
      .sort((a, b) => b.stored.receivedAt - a.stored.receivedAt || b.seq - a.seq)
      .map(({ stored }) => stored);
    return { messages: found.slice(0, limit), hasMore: found.length > limit };
  }
}
