import type { Connection } from 'mongoose';
import type { ObjectType, PropertyValue, SyncBatchMessage, V2Associations } from '@ecomm-sync/contracts';
import { driverCollection } from '../driver-collection';
import { keyFilter, type ObjectKey } from '../object-key';
import { rawMessageModel } from '../models/raw-message.model';
import { onlyDuplicateKeyErrors } from './duplicate-key';

export class RawMessageRepository {
  private readonly messages;

  constructor(connection: Connection) {
    this.messages = rawMessageModel(connection);
  }

  /** Appends every message of a batch once; a redelivered batch adds nothing. */
  async append(batch: SyncBatchMessage): Promise<void> {
    const docs = batch.messages.map((message, seq) => ({
      _id: `${batch.batchId}:${seq}`,
      batchId: batch.batchId,
      seq,
      portalId: batch.tenant.portalId,
      appId: batch.tenant.appId,
      storeId: batch.storeId,
      objectType: batch.objectType,
      externalObjectId: message.externalObjectId,
      action: message.action,
      changedAt: message.changedAt,
      receivedAt: batch.receivedAt,
      source: batch.source,
      properties: Object.entries(message.properties),
      associations: message.associations ?? null,
    }));
    try {
      await driverCollection<{ _id: string }>(this.messages).insertMany(docs, { ordered: false });
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
  }

  async countForBatch(batchId: string): Promise<number> {
    return this.messages.countDocuments({ batchId });
  }

  /** One object's messages as received, newest first (the console's inspector), at most `limit`. */
  async listForObject(key: ObjectKey, limit: number): Promise<{ messages: StoredRawMessage[]; hasMore: boolean }> {
    const docs = await this.messages.collection
      .find(keyFilter(key), { projection: { _id: 0, action: 1, changedAt: 1, receivedAt: 1, source: 1, properties: 1, associations: 1, seq: 1 } })
      .sort({ receivedAt: -1, seq: -1 })
      .limit(limit + 1)
      .toArray();
    const messages = docs.slice(0, limit).map((doc) => ({
      action: doc.action as StoredRawMessage['action'],
      changedAt: (doc.changedAt as number | null) ?? null,
      receivedAt: doc.receivedAt as number,
      source: doc.source as string,
      properties: Object.fromEntries(doc.properties as [string, PropertyValue][]),
      associations: (doc.associations as V2Associations | null) ?? null,
    }));
    return { messages, hasMore: docs.length > limit };
  }
}

export interface StoredRawMessage {
  action: 'UPSERT' | 'DELETE';
  changedAt: number | null;
  receivedAt: number;
  source: string;
  properties: Record<string, PropertyValue>;
  associations: Partial<Record<ObjectType, string[]>> | null;
}
