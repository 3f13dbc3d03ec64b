import type { Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { objectSyncModel } from '../models/object-sync.model';
import { keyFilter, keysFilter, type ObjectKey } from '../object-key';
import { duplicateKeyIndexes, onlyDuplicateKeyErrors } from './duplicate-key';

export interface ObjectSync {
  externalObjectId: string;
  crmId: number | null;
  generation: number;
  archived: boolean;
  appliedRev: number;
  appliedSettingsRev: number;
  lastProcessedAt: number | null;
  changedAt: number | null;
}

export interface ProcessedRecord {
  externalObjectId: string;
  rev: number;
  settingsRev: number;
  processedAt: number;
  changedAt: number;
  /** Present when the CRM link changed (created, relinked, archived). */
  link?: { crmId: number | null; generation: number; archived: boolean };
}

const PROJECTION = { _id: 0, externalObjectId: 1, crmId: 1, generation: 1, archived: 1, appliedRev: 1, appliedSettingsRev: 1, lastProcessedAt: 1, changedAt: 1 };

const toObjectSync = (doc: Record<string, unknown>): ObjectSync => ({
  externalObjectId: doc.externalObjectId as string,
  crmId: (doc.crmId as number | null) ?? null,
  generation: (doc.generation as number) ?? 0,
  archived: (doc.archived as boolean) ?? false,
  appliedRev: (doc.appliedRev as number) ?? 0,
  appliedSettingsRev: (doc.appliedSettingsRev as number) ?? 0,
  lastProcessedAt: (doc.lastProcessedAt as number | null) ?? null,
  changedAt: (doc.changedAt as number | null) ?? null,
});

/** Links to CRM objects and per-object sync status (written by the applier, read by the gateway). */
export class ObjectSyncRepository {
  private readonly syncs;

  constructor(connection: Connection) {
    this.syncs = objectSyncModel(connection);
  }

  async findMany(tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectIds: readonly string[]): Promise<Map<string, ObjectSync>> {
    const docs = await this.syncs.collection.find(keysFilter(tenant, storeId, objectType, externalObjectIds), { projection: PROJECTION }).toArray();
    return new Map(docs.map((doc) => [doc.externalObjectId as string, toObjectSync(doc)]));
  }

  async findOne(key: ObjectKey): Promise<ObjectSync | null> {
    const doc = await this.syncs.collection.findOne(keyFilter(key), { projection: PROJECTION });
    return doc ? toObjectSync(doc) : null;
  }

  /**
   * Records processed revisions, ordered by (rev, settingsRev). A record only lands if no newer one was recorded before it;
   * returns the ids whose record lost to a newer one (their CRM write may need redoing).
   */
  async recordProcessed(tenant: Tenant, storeId: string, objectType: ObjectType, records: readonly ProcessedRecord[]): Promise<string[]> {
    if (records.length === 0) return [];
    const base = { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType };
    const operations = records.map((record) => ({
      updateOne: {
        filter: {
          ...base,
          externalObjectId: record.externalObjectId,
          $or: [{ appliedRev: { $lt: record.rev } }, { appliedRev: record.rev, appliedSettingsRev: { $lt: record.settingsRev } }],
        },
        update: {
          $set: {
            appliedRev: record.rev,
            appliedSettingsRev: record.settingsRev,
            lastProcessedAt: record.processedAt,
            changedAt: record.changedAt,
            ...(record.link ?? {}),
          },
        },
        upsert: true,
      },
    }));
    try {
      await this.syncs.collection.bulkWrite(operations, { ordered: false });
      return [];
    } catch (error) {
      // The filter missed because a newer revision is recorded, so the upsert met the unique key.
      if (!onlyDuplicateKeyErrors(error)) throw error;
      return duplicateKeyIndexes(error).map((index) => records[index]?.externalObjectId).filter((id): id is string => !!id);
    }
  }
}
