import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { ObjectScope } from '@ecomm-sync/contracts';
import { appliedRevisionOf, lostRecord } from '@ecomm-sync/domain';
import { objectSyncModel } from '../models/object-sync.model';
import { findIn } from '../find-in';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keyFields, keyString, keyStrings, type ObjectKey } from '../object-key';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

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

/** Objects claimed for a CRM write (claim), to record under (recordProcessed). */
export interface Claim {
  token: string;
  /** The claimed objects' statuses (an object with no status yet: an unprocessed one). */
  claimed: Map<string, ObjectSync>;
  /** Claimed objects with no status yet: their record is the first, an insert. */
  firstRecords: Set<string>;
  /** Not claimed: the same or a newer revision is applied. */
  notNewer: string[];
}

/** Rounds of compare and set before giving up (the caller's message is retried). */
const MAX_CLAIM_ROUNDS = 10;

const PROJECTION = {
  _id: 0,
  externalObjectId: 1,
  crmId: 1,
  generation: 1,
  archived: 1,
  appliedRev: 1,
  appliedSettingsRev: 1,
  lastProcessedAt: 1,
  changedAt: 1,
  claim: 1,
};

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

const unprocessedDoc = (_id: string, scope: ObjectScope, externalObjectId: string) => ({
  _id,
  ...keyFields(scope, externalObjectId),
  crmId: null,
  generation: 0,
  archived: false,
});

/** Links to CRM objects and per-object sync status (written by the applier, read by the gateway). */
export class ObjectSyncRepository {
  private readonly syncs;

  constructor(connection: Connection) {
    this.syncs = driverCollection<KeyedDoc>(objectSyncModel(connection));
  }

  async findMany(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, ObjectSync>> {
    const docs = await findIn(this.syncs, '_id', keyStrings(scope, externalObjectIds), { projection: PROJECTION });
    return new Map(docs.map((doc) => [doc.externalObjectId as string, toObjectSync(doc)]));
  }

  /** The live (linked, not archived) CRM ids of these objects, by external id: what an association can link to. */
  async liveCrmIds(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, number>> {
    const syncs = await this.findMany(scope, externalObjectIds);
    return new Map([...syncs].filter(([, sync]) => sync.crmId && !sync.archived).map(([id, sync]) => [id, sync.crmId!]));
  }

  async findOne(key: ObjectKey): Promise<ObjectSync | null> {
    const doc = await this.syncs.findOne({ _id: keyString(key) }, { projection: PROJECTION });
    return doc ? toObjectSync(doc) : null;
  }

  /**
   * Claims objects for a CRM write: every writer stamps the status with its own token before it
   * writes, by compare and set on the stamp it read, and records only while the stamp is still
   * its own (recordProcessed), leaving a new stamp. Since every change of a status changes its
   * stamp, a claim lands only on the status its writer read and judged. An object with no status
   * yet costs no claim write: its first record is an insert, which only one writer can make, and
   * the others learn of it from their failed insert (`firstRecords`).
   *
   * A writer whose claim or first record was taken knows that another writer wrote the same
   * object meanwhile, in an order nobody knows, and repairs it; writers that never overlap never
   * see each other (docs/decisions/0018-newest-wins-under-concurrency.md).
   *
   * `toApply` says, from a status, whether the caller's change is still to be written; objects for
   * which it says no are returned in `notNewer` and not claimed.
   */
  async claim(
    scope: ObjectScope,
    seen: ReadonlyMap<string, ObjectSync>,
    externalObjectIds: readonly string[],
    toApply: (externalObjectId: string, sync: ObjectSync | undefined) => boolean,
  ): Promise<Claim> {
    const claim: Claim = { token: randomUUID(), claimed: new Map(), firstRecords: new Set(), notNewer: [] };
    let pending = [...externalObjectIds];
    let current = seen;
    for (let round = 1; pending.length > 0; round++) {
      const updates: { id: string; stored: ObjectSync }[] = [];
      for (const id of pending) {
        const stored = current.get(id);
        if (!toApply(id, stored)) claim.notNewer.push(id);
        else if (!stored) {
          claim.firstRecords.add(id);
          claim.claimed.set(id, unprocessed(id));
        } else updates.push({ id, stored });
      }
      if (updates.length === 0) break;
      if (round > MAX_CLAIM_ROUNDS) throw new Error(`${updates.length} ${scope.objectType} objects kept being claimed by concurrent writers; will retry`);
      const keys = keyStrings(
        scope,
        updates.map(({ id }) => id),
      );
      const result = await this.syncs.bulkWrite(
        updates.map(({ stored }, i) => ({ updateOne: { filter: { _id: keys[i], claim: stored.claim }, update: { $set: { claim: claim.token } } } })),
        { ordered: false },
      );
      if (result.matchedCount === updates.length) {
        for (const { id, stored } of updates) claim.claimed.set(id, { ...stored, claim: claim.token });
        break;
      }
      const now = await this.findMany(
        scope,
        updates.map(({ id }) => id),
      );
      pending = [];
      for (const { id } of updates) {
        const sync = now.get(id);
        if (sync?.claim === claim.token) claim.claimed.set(id, sync);
        else pending.push(id);
      }
      current = now;
    }
    return claim;
  }

  /**
   * Records processed revisions of objects the caller claimed: a record lands only while the
   * object's claim is still the caller's (or, for a first record, if no other writer recorded the
   * object first). The others were written by another writer meanwhile; they come back as
   * superseded or contended, as what is recorded now tells.
   *
   * Nothing is written to the object's state (the alerts' sync lag): the evaluator judges a state's
   * marker against `appliedRev` when it reads the lag (ObjectStateRepository.oldestUnapplied).
   */
  async recordProcessed(scope: ObjectScope, records: readonly ProcessedRecord[], claim: Pick<Claim, 'token' | 'firstRecords'>): Promise<RecordOutcome> {
    const outcome: RecordOutcome = { superseded: [], contended: [] };
    if (records.length === 0) return outcome;
    const stamp = recordedStamp(claim.token);
    const keys = keyStrings(
      scope,
      records.map((record) => record.externalObjectId),
    );
    const operations = records.map((record, i) => {
      const fields = {
        appliedRev: record.rev,
        appliedSettingsRev: record.settingsRev,
        lastProcessedAt: record.processedAt,
        changedAt: record.changedAt,
        ...(record.link ?? {}),
        // A new stamp: a writer that read the status before this record cannot claim on it.
        claim: stamp,
      };
      return claim.firstRecords.has(record.externalObjectId)
        ? { insertOne: { document: { ...unprocessedDoc(keys[i], scope, record.externalObjectId), ...fields } } }
        : { updateOne: { filter: { _id: keys[i], claim: claim.token }, update: { $set: fields } } };
    });
    try {
      const result = await this.syncs.bulkWrite(operations, { ordered: false });
      if (result.insertedCount + result.matchedCount === records.length) return outcome;
    } catch (error) {
      // Another writer made the first record of an object meanwhile.
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
    const now = await this.findMany(
      scope,
      records.map((record) => record.externalObjectId),
    );
    for (const record of records) {
      const sync = now.get(record.externalObjectId);
      if (!sync || sync.claim === stamp) continue;
      outcome[lostRecord(record, appliedRevisionOf(sync))].push(record.externalObjectId);
    }
    return outcome;
  }
}
