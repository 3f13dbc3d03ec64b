import { Types, type Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import { leaseModel, pendingCheckoutModel } from '../models/checkout.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

export interface PendingCheckout {
  id: string;
  tenant: Tenant;
  storeId: string;
  externalObjectId: string;
  crmId: number;
  pendingSince: number;
}

/** A deal as the applier just wrote it: still pending (with its CRM id), or not any more. */
export type CheckoutState = { externalObjectId: string; pending: true; crmId: number } | { externalObjectId: string; pending: false };

interface PendingDoc {
  _id: Types.ObjectId;
  portalId: number;
  appId: string | null;
  storeId: string;
  externalObjectId: string;
  crmId: number;
  pendingSince: number;
}

/** Deals waiting in `checkout_pending`, and the leases that let one replica sweep them. */
export class CheckoutRepository {
  private readonly pending;
  private readonly leases;

  constructor(connection: Connection) {
    this.pending = pendingCheckoutModel(connection);
    this.leases = leaseModel(connection);
  }

  /** One bulk write per batch: pending deals keep the time they first became pending; others are forgotten. */
  async track(tenant: Tenant, storeId: string, deals: readonly CheckoutState[], now: number): Promise<void> {
    if (deals.length === 0) return;
    const key = (externalObjectId: string) => ({ portalId: tenant.portalId, appId: tenant.appId, storeId, externalObjectId });
    await this.pending.collection.bulkWrite(
      deals.map((deal) =>
        deal.pending
          ? { updateOne: { filter: key(deal.externalObjectId), update: { $set: { crmId: deal.crmId }, $setOnInsert: { pendingSince: now } }, upsert: true } }
          : { deleteOne: { filter: key(deal.externalObjectId) } },
      ),
      { ordered: false },
    );
  }

  /** Deals pending since `before` or earlier, oldest first; none of the tenants `passed` (a sweep left them for a later run). */
  async due(before: number, limit: number, passed: readonly Tenant[] = []): Promise<PendingCheckout[]> {
    const filter: Record<string, unknown> = { pendingSince: { $lte: before } };
    if (passed.length > 0) filter.$nor = passed.map((tenant) => ({ portalId: tenant.portalId, appId: tenant.appId }));
    const docs = (await this.pending.collection.find(filter).sort({ pendingSince: 1 }).limit(limit).toArray()) as unknown as PendingDoc[];
    return docs.map((doc) => ({
      id: String(doc._id),
      tenant: { portalId: doc.portalId, appId: doc.appId ?? null },
      storeId: doc.storeId,
      externalObjectId: doc.externalObjectId,
      crmId: doc.crmId,
      pendingSince: doc.pendingSince,
    }));
  }

  /** Forgets swept deals, unless one became pending again meanwhile (its pendingSince changed). */
  async forget(checkouts: readonly PendingCheckout[]): Promise<void> {
    if (checkouts.length === 0) return;
    await this.pending.collection.bulkWrite(
      checkouts.map((checkout) => ({ deleteOne: { filter: { _id: new Types.ObjectId(checkout.id), pendingSince: checkout.pendingSince } } })),
      { ordered: false },
    );
  }

  /**
   * Takes or renews the lease `name` for `holder` until `now + ttlMs`; false while another holder's
   * lease runs. The filter matches a free or own lease; when it matches none, the upsert's insert
   * collides with the taken lease's `_id` and fails, which is the answer.
   */
  async acquireLease(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    try {
      await this.leases.collection.updateOne(
        { _id: name, $or: [{ until: { $lt: now } }, { holder }] } as never,
        { $set: { holder, until: now + ttlMs } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
      return false;
    }
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.leases.collection.deleteOne({ _id: name, holder } as never);
  }
}
