import type { Connection } from 'mongoose';
import type { MappedChange, ObjectScope, Tenant } from '@ecomm-sync/contracts';
import { waitingWindow } from '@ecomm-sync/domain';
import { waitingObjectModel } from '../models/waiting-object.model';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keyStrings } from '../object-key';
import { keepNewestChanges, releaseKeptChanges, type KeptUpTo } from './revision-filter';

/** One waiting change, with the scope of its object. */
export interface WaitingObject extends ObjectScope {
  change: MappedChange;
  waitingFor: string[];
  since: number;
  until: number;
  /** Already applied at its revision; written again (for its associations) once what it waits for arrives. */
  reapply: boolean;
}

/** As stored: the tenant's fields at the top level, so that queries and indexes can use them. */
type WaitingDoc = Omit<WaitingObject, 'tenant'> & Tenant & { _id: string; triedAt: number };

const toWaiting = ({ portalId, appId, _id: _key, triedAt: _triedAt, reapply, ...rest }: WaitingDoc): WaitingObject => ({
  tenant: { portalId, appId: appId ?? null },
  ...rest,
  reapply: reapply ?? false,
});

export class WaitingObjectRepository {
  private readonly waiting;

  constructor(connection: Connection) {
    this.waiting = driverCollection<KeyedDoc>(waitingObjectModel(connection));
  }

  /**
   * Keeps the waiting change of each object as libs/domain's waitingTransition says ('left-waiting'):
   * replacing a stored one that is not newer (an entry of a newer revision stays); the window starts
   * at its first wait. `triedAt` puts a change just
   * tried at the back of the periodic retry's line. `reapply` marks changes that were applied and
   * wait only to be written again with their associations.
   */
  async wait(
    scope: ObjectScope,
    entries: { change: MappedChange; waitingFor: string[] }[],
    now: number,
    windowMs: number,
    { reapply = false }: { reapply?: boolean } = {},
  ): Promise<void> {
    await keepNewestChanges(this.waiting, scope, entries, ({ waitingFor }) => ({
      set: { waitingFor, triedAt: now, reapply },
      insert: waitingWindow(now, windowMs),
    }));
  }

  /**
   * Removes the waiting changes of objects that were processed (applied, or failed for another
   * reason) at these revisions. An entry stored meanwhile for a newer revision stays: work that
   * read an older entry must not remove the one a newer revision left to be applied.
   */
  async release(scope: ObjectScope, processed: readonly KeptUpTo[]): Promise<void> {
    await releaseKeptChanges(this.waiting, scope, processed);
  }

  /**
   * Whether a change of the object waits to be applied, within its window (the console's inspector);
   * an applied change waiting only to associate later (`reapply`) does not count.
   */
  async isWaiting(scope: ObjectScope, externalObjectId: string, now: number): Promise<boolean> {
    const filter = { _id: keyStrings(scope, [externalObjectId])[0], reapply: { $ne: true }, until: { $gt: now } };
    return (await this.waiting.countDocuments(filter, { limit: 1 })) > 0;
  }

  /** Waiting changes within their window that wait for any of these objects (`TYPE:id`). */
  async waitingFor(tenant: Tenant, storeId: string, keys: readonly string[], now: number): Promise<WaitingObject[]> {
    if (keys.length === 0) return [];
    const docs = await this.waiting
      .find({ portalId: tenant.portalId, appId: tenant.appId, storeId, waitingFor: { $in: [...keys] }, until: { $gt: now } })
      .toArray();
    return (docs as unknown as WaitingDoc[]).map(toWaiting);
  }

  /** Up to `limit` waiting changes still within their window, least recently tried first (the periodic retry). */
  async due(now: number, limit: number): Promise<WaitingObject[]> {
    const docs = await this.waiting
      .find({ until: { $gt: now } })
      .sort({ triedAt: 1 })
      .limit(limit)
      .toArray();
    return (docs as unknown as WaitingDoc[]).map(toWaiting);
  }

  /** Puts changes that were looked at and still wait at the back of the periodic retry's line. */
  async markTried(entries: readonly WaitingObject[], now: number): Promise<void> {
    if (entries.length === 0) return;
    const keys = entries.map((entry) => keyStrings(entry, [entry.change.externalObjectId])[0]);
    await this.waiting.updateMany({ _id: { $in: keys } }, { $set: { triedAt: now } });
  }

  /** Forgets changes whose window ended; their error stays open. */
  async expire(now: number): Promise<number> {
    const result = await this.waiting.deleteMany({ until: { $lte: now } });
    return result.deletedCount;
  }
}
