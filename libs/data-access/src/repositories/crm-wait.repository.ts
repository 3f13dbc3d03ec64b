import type { Connection } from 'mongoose';
import type { CrmWait, CrmWaitReason } from '@ecomm-sync/domain';
import { crmWaitModel } from '../models/crm-wait.model';
import { driverCollection } from '../driver-collection';

/** A portal's wait as stored: `stamp` changes whenever a change is parked under it. */
export interface StoredCrmWait {
  portalId: number;
  wait: CrmWait;
  stamp: string | null;
}

type CrmWaitDoc = CrmWait & { _id: number; stamp?: string | null };

const toStored = ({ _id, stamp, reason, since, until, tries, lastAnswer }: CrmWaitDoc): StoredCrmWait => ({
  portalId: _id,
  wait: { reason: reason as CrmWaitReason, since, until, tries, lastAnswer },
  stamp: stamp ?? null,
});

/** Portals whose CRM work waits, one document each, gone once their parked changes are applied. */
export class CrmWaitRepository {
  private readonly waits;

  constructor(connection: Connection) {
    this.waits = driverCollection<CrmWaitDoc>(crmWaitModel(connection));
  }

  async find(portalId: number): Promise<CrmWait | null> {
    const doc = await this.waits.findOne({ _id: portalId });
    return doc ? toStored(doc).wait : null;
  }

  /** Records the portal's wait (the caller computed it from the one it read: nextCrmWait). */
  async set(portalId: number, wait: CrmWait): Promise<void> {
    await this.waits.updateOne({ _id: portalId }, { $set: wait }, { upsert: true });
  }

  /** Marks that a change was parked: the wait exists (as `wait` if there was none) and has a new stamp. */
  async stamp(portalId: number, wait: CrmWait, stamp: string): Promise<void> {
    await this.waits.updateOne({ _id: portalId }, { $set: { stamp }, $setOnInsert: wait }, { upsert: true });
  }

  /** Portals whose wait has ended by `now`: their parked changes are tried again. */
  async due(now: number, limit: number): Promise<StoredCrmWait[]> {
    const docs = await this.waits
      .find({ until: { $lte: now } })
      .sort({ until: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toStored);
  }

  /**
   * Takes an ended wait for a resume, by compare and set: its `until` moves to `leaseUntil`, so
   * that other replicas neither resume it too nor write to the CRM meanwhile. False when another
   * replica took it or a failure was recorded since it was read.
   */
  async takeForResume(seen: StoredCrmWait, leaseUntil: number): Promise<StoredCrmWait | null> {
    const result = await this.waits.updateOne({ _id: seen.portalId, until: seen.wait.until }, { $set: { until: leaseUntil } });
    return result.matchedCount === 1 ? { ...seen, wait: { ...seen.wait, until: leaseUntil } } : null;
  }

  /** Makes a taken wait due again at `at` (the resume stopped, or something was parked while it ran). */
  async release(taken: StoredCrmWait, at: number): Promise<void> {
    await this.waits.updateOne({ _id: taken.portalId, until: taken.wait.until }, { $set: { until: at } });
  }

  /**
   * Ends the wait once nothing is parked, unless it changed since it was read: a change parked
   * meanwhile (a new stamp) or a failure recorded meanwhile (a new `until`) keeps it.
   */
  async clear(seen: StoredCrmWait): Promise<boolean> {
    const result = await this.waits.deleteOne({ _id: seen.portalId, until: seen.wait.until, stamp: seen.stamp });
    return result.deletedCount === 1;
  }
}
