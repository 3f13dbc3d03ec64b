import type { Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { compareRevisions } from '@ecomm-sync/domain';
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
  /** Token of the writer that last claimed the object for a CRM write (claim). */
  claim: string | null;
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

/** What recording processed revisions found, by external id. */
export interface RecordOutcome {
  /**
   * Not recorded: a newer revision was recorded by a writer that claimed the object after this
   * one, whose CRM write may have landed before this one's: the newest state must be written again.
   */
  superseded: string[];
  /**
   * Not recorded: another writer claimed the object after this one, and what is recorded now is
   * not newer than this revision: its CRM write may have landed after this one's, so this
   * revision is to be claimed and written again.
   */
  contended: string[];
}

/** Rounds of compare and set before giving up (the caller's message is retried). */
const MAX_CLAIM_ROUNDS = 10;

const PROJECTION = { _id: 0, externalObjectId: 1, crmId: 1, generation: 1, archived: 1, appliedRev: 1, appliedSettingsRev: 1, lastProcessedAt: 1, changedAt: 1, claim: 1 };

const toObjectSync = (doc: Record<string, unknown>): ObjectSync => ({
  externalObjectId: doc.externalObjectId as string,
  crmId: (doc.crmId as number | null) ?? null,
  generation: (doc.generation as number) ?? 0,
  archived: (doc.archived as boolean) ?? false,
  appliedRev: (doc.appliedRev as number) ?? 0,
  appliedSettingsRev: (doc.appliedSettingsRev as number) ?? 0,
  lastProcessedAt: (doc.lastProcessedAt as number | null) ?? null,
  changedAt: (doc.changedAt as number | null) ?? null,
  claim: (doc.claim as string | null) ?? null,
});

/** The claim stamp a record leaves: every change of a status changes its stamp. */
const recordedStamp = (token: string) => `${token}:recorded`;

const unprocessed = (externalObjectId: string): ObjectSync => ({
  externalObjectId,
  crmId: null,
  generation: 0,
  archived: false,
  appliedRev: 0,
  appliedSettingsRev: 0,
  lastProcessedAt: null,
  changedAt: null,
  claim: null,
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
   * Claims objects for a CRM write: every writer stamps the status with its own token before it
   * writes, by compare and set on the stamp it read, and records only while the stamp is still
   * its own (recordProcessed), leaving a new stamp. Since every change of a status changes its
   * stamp, a claim lands only on the status its writer read and judged. A writer that finds its stamp replaced knows that another writer
   * wrote the same object meanwhile, in an order nobody knows, and repairs it; writers that never
   * overlap never see each other (docs/decisions/0018-newest-wins-under-concurrency.md).
   *
   * `toApply` says, from a status, whether the caller's change is still to be written; objects for
   * which it says no are returned in `notNewer` and not claimed. Returns the statuses of the
   * claimed objects as they are now (with the caller's token).
   */
  async claim(
    tenant: Tenant,
    storeId: string,
    objectType: ObjectType,
    seen: ReadonlyMap<string, ObjectSync>,
    externalObjectIds: readonly string[],
    token: string,
    toApply: (externalObjectId: string, sync: ObjectSync | undefined) => boolean,
  ): Promise<{ claimed: Map<string, ObjectSync>; notNewer: string[] }> {
    const claimed = new Map<string, ObjectSync>();
    const notNewer: string[] = [];
    let pending = [...externalObjectIds];
    let current = seen;
    for (let round = 1; pending.length > 0; round++) {
      const claims = pending.filter((id) => {
        if (toApply(id, current.get(id))) return true;
        notNewer.push(id);
        return false;
      });
      if (claims.length === 0) break;
      if (round > MAX_CLAIM_ROUNDS) throw new Error(`${claims.length} ${objectType} objects kept being claimed by concurrent writers; will retry`);
      const keys = keyStrings(tenant, storeId, objectType, claims);
      const operations = claims.map((id, i) => {
        const stored = current.get(id);
        return stored
          ? { updateOne: { filter: { _id: keys[i], claim: stored.claim }, update: { $set: { claim: token } } } }
          : {
              insertOne: {
                document: { _id: keys[i], ...keyFields(tenant, storeId, objectType, id), crmId: null, generation: 0, archived: false, appliedRev: 0, appliedSettingsRev: 0, lastProcessedAt: null, changedAt: null, claim: token },
              },
            };
      });
      let all = false;
      try {
        const result = await this.syncs.bulkWrite(operations, { ordered: false });
        all = result.insertedCount + result.matchedCount === claims.length;
      } catch (error) {
        // A first writer of the object inserted its status meanwhile.
        if (!onlyDuplicateKeyErrors(error)) throw error;
      }
      if (all) {
        for (const id of claims) claimed.set(id, { ...(current.get(id) ?? unprocessed(id)), claim: token });
        break;
      }
      const now = await this.findMany(tenant, storeId, objectType, claims);
      pending = [];
      for (const id of claims) {
        const sync = now.get(id);
        if (sync?.claim === token) claimed.set(id, sync);
        else pending.push(id);
      }
      current = now;
    }
    return { claimed, notNewer };
  }

  /**
   * Records processed revisions of objects the caller claimed with `token`: a record lands only
   * while the object's claim is still the caller's. The others were claimed by another writer
   * meanwhile; they come back as superseded or contended, as what is recorded now tells.
   */
  async recordProcessed(tenant: Tenant, storeId: string, objectType: ObjectType, records: readonly ProcessedRecord[], token: string): Promise<RecordOutcome> {
    const outcome: RecordOutcome = { superseded: [], contended: [] };
    if (records.length === 0) return outcome;
    const keys = keyStrings(tenant, storeId, objectType, records.map((record) => record.externalObjectId));
    const operations = records.map((record, i) => ({
      updateOne: {
        filter: { _id: keys[i], claim: token },
        update: {
          $set: {
            appliedRev: record.rev,
            appliedSettingsRev: record.settingsRev,
            lastProcessedAt: record.processedAt,
            changedAt: record.changedAt,
            ...(record.link ?? {}),
            // A new stamp: a writer that read the status before this record cannot claim on it.
            claim: recordedStamp(token),
          },
        },
      },
    }));
    const result = await this.syncs.bulkWrite(operations, { ordered: false });
    if (result.matchedCount === records.length) return outcome;
    const now = await this.findMany(tenant, storeId, objectType, records.map((record) => record.externalObjectId));
    for (const record of records) {
      const sync = now.get(record.externalObjectId);
      if (!sync || sync.claim === token || sync.claim === recordedStamp(token)) continue;
      const order = compareRevisions(record, { rev: sync.appliedRev, settingsRev: sync.appliedSettingsRev });
      (order < 0 ? outcome.superseded : outcome.contended).push(record.externalObjectId);
    }
    return outcome;
  }
}
