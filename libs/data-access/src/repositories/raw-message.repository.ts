import type { Connection } from 'mongoose';
import type { SyncBatchMessage } from '@ecomm-sync/contracts';
import { driverCollection } from '../driver-collection';
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
}
