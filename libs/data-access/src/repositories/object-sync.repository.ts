import type { Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { objectSyncModel } from '../models/object-sync.model';
import { findIn } from '../find-in';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keyFields, keyString, keyStrings, type ObjectKey } from '../object-key';
import { onlyDuplicateKeyErrors } from './duplicate-key';

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

/** Rounds of compare and set before giving up (the caller's message is retried). */
const MAX_RECORD_ROUNDS = 10;

/** Processed revisions are ordered by the state's revision, then by the settings revision it was mapped with. */
const compareRevisions = (a: { rev: number; settingsRev: number }, b: { rev: number; settingsRev: number }) => a.rev - b.rev || a.settingsRev - b.settingsRev;

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
    this.syncs = driverCollection<KeyedDoc>(objectSyncModel(connection));
  }

  async findMany(tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectIds: readonly string[]): Promise<Map<string, ObjectSync>> {
    const docs = await findIn(this.syncs, '_id', keyStrings(tenant, storeId, objectType, externalObjectIds), { projection: PROJECTION });
    return new Map(docs.map((doc) => [doc.externalObjectId as string, toObjectSync(doc)]));
  }

  async findOne(key: ObjectKey): Promise<ObjectSync | null> {
    const doc = await this.syncs.findOne({ _id: keyString(key) }, { projection: PROJECTION });
    return doc ? toObjectSync(doc) : null;
  }

  /**
   * Records processed revisions, ordered by (rev, settingsRev): a record lands only over an older
   * one, by compare and set on the revision read (`seen`: the syncs as read before applying; after
   * a lost race they are read again). Returns the ids whose record did not land because the same
   * or a newer revision was recorded before it (a redelivery, or a concurrent applier).
   */
  async recordProcessed(
    tenant: Tenant,
    storeId: string,
    objectType: ObjectType,
    records: readonly ProcessedRecord[],
    seen?: ReadonlyMap<string, ObjectSync>,
  ): Promise<string[]> {
    const lost: string[] = [];
    let pending = [...records];
    let current = seen ?? (await this.findMany(tenant, storeId, objectType, pending.map((record) => record.externalObjectId)));
    for (let round = 1; pending.length > 0; round++) {
      const writes: { record: ProcessedRecord; stored?: ObjectSync }[] = [];
      for (const record of pending) {
        const stored = current.get(record.externalObjectId);
        const order = stored ? compareRevisions(record, { rev: stored.appliedRev, settingsRev: stored.appliedSettingsRev }) : 1;
        if (order > 0) writes.push({ record, stored });
        // After the first round an equal revision is the one this call wrote.
        else if (order < 0 || round === 1) lost.push(record.externalObjectId);
      }
      if (writes.length === 0) break;
      if (round > MAX_RECORD_ROUNDS) throw new Error(`the status of ${writes.length} ${objectType} objects kept changing under concurrent writers; will retry`);
      const keys = keyStrings(tenant, storeId, objectType, writes.map(({ record }) => record.externalObjectId));
      const operations = writes.map(({ record, stored }, i) => {
        const fields = {
          appliedRev: record.rev,
          appliedSettingsRev: record.settingsRev,
          lastProcessedAt: record.processedAt,
          changedAt: record.changedAt,
          ...(record.link ?? {}),
        };
        return stored
          ? { updateOne: { filter: { _id: keys[i], appliedRev: stored.appliedRev, appliedSettingsRev: stored.appliedSettingsRev }, update: { $set: fields } } }
          : { insertOne: { document: { _id: keys[i], ...keyFields(tenant, storeId, objectType, record.externalObjectId), ...fields } } };
      });
      try {
        const result = await this.syncs.bulkWrite(operations, { ordered: false });
        if (result.insertedCount + result.matchedCount === writes.length) break;
      } catch (error) {
        // A first record of the object was inserted by another writer meanwhile.
        if (!onlyDuplicateKeyErrors(error)) throw error;
      }
      // Some writes lost a race: read what is recorded now and write again where ours is still newer.
      pending = writes.map(({ record }) => record);
      current = await this.findMany(tenant, storeId, objectType, pending.map((record) => record.externalObjectId));
    }
    return lost;
  }
}
