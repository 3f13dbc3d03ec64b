import { randomUUID } from 'node:crypto';
import type { ObjectScope } from '@ecomm-sync/contracts';
import type { Claim, ObjectKey, ObjectSync, ObjectSyncRepository, ProcessedRecord, RecordOutcome } from '@ecomm-sync/data-access';
import { appliedRevisionOf, keyOf, lostRecord } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

const objectKey = ({ tenant, storeId, objectType }: ObjectScope, externalObjectId: string) =>
  keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId);

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

/**
 * ObjectSyncRepository in memory: links and statuses by object key, claimed by compare and set on
 * the claim stamp and recorded only under one's own claim (or as the first record), as the real one.
 */
export class FakeObjectSyncRepository implements PublicOf<ObjectSyncRepository> {
  private readonly rows = new Map<string, ObjectSync>();
  /** The natural key of each row, for scan(). */
  private readonly keys = new Map<string, ObjectKey>();

  /** Every status with its object's key: for the fakes of the console's read models. */
  scan(): (ObjectKey & ObjectSync)[] {
    return [...this.rows].map(([key, sync]) => ({ ...this.keys.get(key)!, ...copy(sync) }));
  }

  private store(scope: ObjectScope, sync: ObjectSync): void {
    const key = objectKey(scope, sync.externalObjectId);
    this.rows.set(key, sync);
    const { tenant, storeId, objectType } = scope;
    this.keys.set(key, { portalId: tenant.portalId, appId: tenant.appId, storeId, objectType, externalObjectId: sync.externalObjectId });
  }

  /** Test setup: stores a status as if a writer had recorded it. */
  put(scope: ObjectScope, sync: ObjectSync): void {
    this.store(scope, copy(sync));
  }

  async findMany(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, ObjectSync>> {
    const found = new Map<string, ObjectSync>();
    for (const id of externalObjectIds) {
      const row = this.rows.get(objectKey(scope, id));
      if (row) found.set(id, copy(row));
    }
    return found;
  }

  async liveCrmIds(scope: ObjectScope, externalObjectIds: readonly string[]): Promise<Map<string, number>> {
    const syncs = await this.findMany(scope, externalObjectIds);
    return new Map([...syncs].filter(([, sync]) => sync.crmId && !sync.archived).map(([id, sync]) => [id, sync.crmId!]));
  }

  async findOne(key: ObjectKey): Promise<ObjectSync | null> {
    const row = this.rows.get(objectKey({ tenant: key, storeId: key.storeId, objectType: key.objectType }, key.externalObjectId));
    return row ? copy(row) : null;
  }

  async claim(
    scope: ObjectScope,
    seen: ReadonlyMap<string, ObjectSync>,
    externalObjectIds: readonly string[],
    toApply: (externalObjectId: string, sync: ObjectSync | undefined) => boolean,
  ): Promise<Claim> {
    const claim: Claim = { token: randomUUID(), claimed: new Map(), firstRecords: new Set(), notNewer: [] };
    let pending = [...externalObjectIds];
    let current: ReadonlyMap<string, ObjectSync> = seen;
    while (pending.length > 0) {
      const lost: string[] = [];
      for (const id of pending) {
        const stored = current.get(id);
        if (!toApply(id, stored)) claim.notNewer.push(id);
        else if (!stored) {
          claim.firstRecords.add(id);
          claim.claimed.set(id, unprocessed(id));
        } else {
          const row = this.rows.get(objectKey(scope, id));
          if (row && row.claim === stored.claim) {
            row.claim = claim.token;
            claim.claimed.set(id, { ...copy(stored), claim: claim.token });
          } else lost.push(id);
        }
      }
      // Claimed by another writer since it was read: judged again on what is stored now.
      current = await this.findMany(scope, lost);
      pending = lost;
    }
    return claim;
  }

  async recordProcessed(scope: ObjectScope, records: readonly ProcessedRecord[], claim: Pick<Claim, 'token' | 'firstRecords'>): Promise<RecordOutcome> {
    const outcome: RecordOutcome = { superseded: [], contended: [] };
    const stamp = `${claim.token}:recorded`;
    const missed: ProcessedRecord[] = [];
    for (const record of records) {
      const key = objectKey(scope, record.externalObjectId);
      const row = this.rows.get(key);
      const fields = {
        appliedRev: record.rev,
        appliedSettingsRev: record.settingsRev,
        lastProcessedAt: record.processedAt,
        changedAt: record.changedAt,
        ...(record.link ?? {}),
        claim: stamp,
      };
      if (claim.firstRecords.has(record.externalObjectId) ? row : row?.claim !== claim.token) {
        missed.push(record);
        continue;
      }
      this.store(scope, { ...(row ?? unprocessed(record.externalObjectId)), ...copy(fields) });
    }
    for (const record of missed) {
      const sync = this.rows.get(objectKey(scope, record.externalObjectId));
      if (!sync || sync.claim === stamp) continue;
      outcome[lostRecord(record, appliedRevisionOf(sync))].push(record.externalObjectId);
    }
    return outcome;
  }
}
