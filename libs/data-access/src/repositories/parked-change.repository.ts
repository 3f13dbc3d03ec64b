import type { Connection } from 'mongoose';
import type { MappedChange, ObjectScope, Tenant } from '@ecomm-sync/contracts';
import { parkedChangeModel } from '../models/parked-change.model';
import { driverCollection, type KeyedDoc } from '../driver-collection';
import { keepNewestChanges, releaseKeptChanges, type KeptUpTo } from './revision-filter';

/** One parked change, with the scope of its object. */
export interface ParkedChange extends ObjectScope {
  change: MappedChange;
  reapply: boolean;
  parkedAt: number;
}

type ParkedDoc = Omit<ParkedChange, 'tenant'> & Tenant & { _id: string };

const toParked = ({ portalId, appId, _id: _key, ...rest }: ParkedDoc): ParkedChange => ({ tenant: { portalId, appId: appId ?? null }, ...rest });

/** Changes kept while their portal's CRM work waits: the newest revision of each object. */
export class ParkedChangeRepository {
  private readonly parked;

  constructor(connection: Connection) {
    this.parked = driverCollection<KeyedDoc>(parkedChangeModel(connection));
  }

  /** Keeps each change, replacing a parked one that is not newer (one of a newer revision stays). */
  async park(scope: ObjectScope, changes: readonly { change: MappedChange; reapply: boolean }[], now: number): Promise<void> {
    await keepNewestChanges(this.parked, scope, changes, ({ reapply }) => ({ set: { reapply }, insert: { parkedAt: now } }));
  }

  /** Up to `limit` of a portal's parked changes, parked longest first. */
  async take(portalId: number, limit: number): Promise<ParkedChange[]> {
    const docs = await this.parked.find({ portalId }).sort({ parkedAt: 1 }).limit(limit).toArray();
    return (docs as unknown as ParkedDoc[]).map(toParked);
  }

  /** How many changes of the portal are parked. */
  async count(portalId: number): Promise<number> {
    return this.parked.countDocuments({ portalId });
  }

  /** Removes parked changes that were applied at these revisions (one parked meanwhile for a newer revision stays). */
  async release(scope: ObjectScope, applied: readonly KeptUpTo[]): Promise<void> {
    await releaseKeptChanges(this.parked, scope, applied);
  }
}
