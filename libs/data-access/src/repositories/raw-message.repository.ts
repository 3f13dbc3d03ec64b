import type { Connection } from 'mongoose';
import type { ObjectType, PropertyValue, SyncBatchMessage, V2Associations } from '@ecomm-sync/contracts';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keyFilter, type ObjectKey } from '../object-key';
import { rawMessageModel } from '../models/raw-message.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

/** One message as the log keeps it, in a batch's document or (older deployments) a document of its own. */
interface LoggedMessage {
  action: StoredRawMessage['action'];
  changedAt: number | null;
  properties: [string, PropertyValue][];
  associations: V2Associations | null;
}

const stored = (message: LoggedMessage, batch: KeyedDoc): StoredRawMessage => ({
  action: message.action,
  changedAt: message.changedAt ?? null,
  receivedAt: batch.receivedAt as number,
  source: batch.source as string,
  properties: Object.fromEntries(message.properties),
  associations: message.associations ?? null,
});

/**
 * The log of every message as received: one document per accepted batch (decision 0055), keyed
 * by the batch id, with the ids of the objects it carries. Deployments from before it hold one
 * document per message (`<batchId>:<seq>`); both are read alike.
 */
export class RawMessageRepository {
  private readonly messages;

  constructor(connection: Connection) {
    this.messages = driverCollection<KeyedDoc>(rawMessageModel(connection));
  }

  /**
   * Appends every message of a batch once; a redelivered batch adds nothing. A batch is one
   * document, or several (`<batchId>#<n>`, in order) when its messages would come near the
   * server's 16 MB document limit.
   */
  async append(batch: SyncBatchMessage): Promise<void> {
    const documents = chunksOf(batch.messages).map(({ first, messages }, n) => ({
      _id: n === 0 ? batch.batchId : `${batch.batchId}#${n}`,
      batchId: batch.batchId,
      portalId: batch.tenant.portalId,
      appId: batch.tenant.appId,
      storeId: batch.storeId,
      objectType: batch.objectType,
      receivedAt: batch.receivedAt,
      source: batch.source,
      first,
      count: messages.length,
      objectIds: [...new Set(messages.map((message) => message.externalObjectId))],
      messages: messages.map((message) => ({
        externalObjectId: message.externalObjectId,
        action: message.action,
        changedAt: message.changedAt,
        /** [name, value] pairs: sender names may hold characters MongoDB keys may not. */
        properties: Object.entries(message.properties),
        associations: message.associations ?? null,
      })),
    }));
    try {
      await this.messages.insertMany(documents, { ordered: false });
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
  }

  /** How many messages of a batch are kept (tests and support; every document of the batch, either shape). */
  async countForBatch(batchId: string): Promise<number> {
    const documents = await this.messages.find({ batchId }, { projection: { count: 1 } }).toArray();
    return documents.reduce((sum, document) => sum + Number(document.count ?? 1), 0);
  }

  /** One object's messages as received, newest first (the console's inspector), at most `limit`. */
  async listForObject(key: ObjectKey, limit: number): Promise<{ messages: StoredRawMessage[]; hasMore: boolean }> {
    const { externalObjectId, ...scope } = keyFilter(key);
    const [fromBatches, ownDocuments] = await Promise.all([
      this.objectInBatches(scope, externalObjectId, limit + 1),
      this.messages
        .find(
          { ...scope, externalObjectId },
          { projection: { _id: 0, action: 1, changedAt: 1, receivedAt: 1, source: 1, properties: 1, associations: 1, seq: 1 } },
        )
        .sort({ receivedAt: -1, seq: -1 })
        .limit(limit + 1)
        .toArray(),
    ]);
    const found = [...fromBatches, ...ownDocuments.map((doc) => ({ seq: doc.seq as number, message: stored(doc as unknown as LoggedMessage, doc) }))]
      .sort((a, b) => b.message.receivedAt - a.message.receivedAt || b.seq - a.seq)
      .map(({ message }) => message);
    return { messages: found.slice(0, limit), hasMore: found.length > limit };
  }

  /**
   * The object's messages in the newest `batches` batch documents that hold it. A document holds up
   * to 2 MB of JSON (about 7 MB as BSON): they are read two at a time and only the object's messages
   * kept, so that one inspector request holds a few documents, not a hundred at once.
   */
  private async objectInBatches(scope: Record<string, unknown>, externalObjectId: string, batches: number) {
    const cursor = this.messages
      .find({ ...scope, objectIds: externalObjectId }, { projection: { receivedAt: 1, source: 1, first: 1, messages: 1 } })
      .sort({ receivedAt: -1 })
      .limit(batches)
      .batchSize(2);
    const found: { seq: number; message: StoredRawMessage }[] = [];
    for await (const batch of cursor) {
      (batch.messages as (LoggedMessage & { externalObjectId: string })[]).forEach((message, index) => {
        if (message.externalObjectId === externalObjectId) found.push({ seq: Number(batch.first ?? 0) + index, message: stored(message, batch) });
      });
    }
    return found;
  }
}

/**
 * A batch's messages in runs whose JSON stays under CHUNK_JSON_BYTES: stored as BSON with
 * `[name, value]` pairs, a run of many short properties grows about 3.5 times, so a run stays far
 * under 16 MB whatever the gateway's body limit lets through.
 */
const CHUNK_JSON_BYTES = 2 * 1024 * 1024;

function chunksOf<T>(messages: readonly T[]): { first: number; messages: T[] }[] {
  const chunks: { first: number; messages: T[] }[] = [];
  let size = Infinity;
  messages.forEach((message, index) => {
    const bytes = JSON.stringify(message).length;
    if (size + bytes > CHUNK_JSON_BYTES) {
      chunks.push({ first: index, messages: [] });
      size = 0;
    }
    chunks[chunks.length - 1].messages.push(message);
    size += bytes;
  });
  return chunks.length > 0 ? chunks : [{ first: 0, messages: [] }];
}

export interface StoredRawMessage {
  action: 'UPSERT' | 'DELETE';
  changedAt: number | null;
  receivedAt: number;
  source: string;
  properties: Record<string, PropertyValue>;
  associations: Partial<Record<ObjectType, string[]>> | null;
}
