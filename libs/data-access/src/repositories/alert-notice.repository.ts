import type { Connection } from 'mongoose';
import type { AlertNoticeBody, Tenant } from '@ecomm-sync/contracts';
import { driverCollection } from '../driver-collection';
import { alertNoticeModel } from '../models/alert.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

export type AlertNoticeStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface AlertNotice {
  id: string;
  portalId: number;
  appId: string | null;
  ruleId: string;
  ruleName: string;
  destinationId: string;
  kind: 'firing' | 'resolved';
  seq: number;
  value: number;
  summary: string;
  body: AlertNoticeBody;
  status: AlertNoticeStatus;
  leaseUntil: number | null;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
  /** When the evaluator last queued it again (a first queueing may have been lost); null before. */
  requeuedAt: number | null;
}

export type NewAlertNotice = Omit<AlertNotice, 'id' | 'status' | 'leaseUntil' | 'attempts' | 'lastError' | 'sentAt' | 'requeuedAt'>;

/**
 * Which notices the evaluator queues again: stored before `storedBefore`, not queued again since
 * `requeuedBefore`, and, of those a sender took, only those whose lease ended before
 * `leaseEndedBefore`: a margin past the lease, so that a sender running late but alive is not
 * raced into sending the notice twice.
 */
export interface RequeueWindow {
  storedBefore: number;
  requeuedBefore: number;
  leaseEndedBefore: number;
}

type NoticeDoc = Omit<AlertNotice, 'id'> & { _id: string };

const owned = (tenant: Tenant) => ({ portalId: tenant.portalId, appId: tenant.appId });
const toNotice = ({ _id, ...doc }: NoticeDoc): AlertNotice => ({ id: _id, ...doc, appId: doc.appId ?? null, requeuedAt: doc.requeuedAt ?? null });

/** The one id of a rule's change of state to one destination: storing it twice stores it once. */
export const alertNoticeId = (ruleId: string, seq: number, destinationId: string) => `${ruleId}:${seq}:${destinationId}`;

/**
 * Notices, one per change of state and destination. Stored before they are queued; the sender
 * takes one by compare and set (pending or failed, or a lease that ran out), so a notice queued
 * twice or seen by two replicas is sent once.
 */
export class AlertNoticeRepository {
  private readonly notices;

  constructor(connection: Connection) {
    this.notices = driverCollection<NoticeDoc>(alertNoticeModel(connection));
  }

  /** Stores the notices as pending; those stored already (a repeated outbox) are left as they are. */
  async store(notices: readonly NewAlertNotice[]): Promise<string[]> {
    if (notices.length === 0) return [];
    const docs = notices.map((notice) => ({ _id: alertNoticeId(notice.ruleId, notice.seq, notice.destinationId), notice }));
    try {
      await this.notices.bulkWrite(
        docs.map(({ _id, notice }) => ({
          updateOne: {
            filter: { _id },
            update: { $setOnInsert: { ...notice, status: 'pending', leaseUntil: null, attempts: 0, lastError: null, sentAt: null, requeuedAt: null } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
    return docs.map(({ _id }) => _id);
  }

  async find(id: string): Promise<AlertNotice | null> {
    const doc = await this.notices.findOne({ _id: id });
    return doc ? toNotice(doc) : null;
  }

  /** Takes a notice to send until `leaseUntil`: null when it was sent, or another sender holds it. */
  async take(id: string, now: number, leaseUntil: number): Promise<AlertNotice | null> {
    const doc = await this.notices.findOneAndUpdate(
      { _id: id, $or: [{ status: { $in: ['pending', 'failed'] } }, { status: 'sending', leaseUntil: { $lt: now } }] },
      { $set: { status: 'sending', leaseUntil } },
      { returnDocument: 'after' },
    );
    return doc ? toNotice(doc) : null;
  }

  /**
   * Records one more attempt while the notice is held by the lease `heldUntil` (the console shows
   * how it goes); false when that lease is no longer the notice's (another sender took it over).
   * Successive leases of a notice end ever later, so a lease's end names its holder.
   */
  async recordAttempt(id: string, heldUntil: number, error: string | null): Promise<boolean> {
    const { matchedCount } = await this.notices.updateOne(
      { _id: id, status: 'sending', leaseUntil: heldUntil },
      { $inc: { attempts: 1 }, $set: { lastError: error } },
    );
    return matchedCount === 1;
  }

  /** Ends the lease `heldUntil` with the outcome; false when the lease is no longer the notice's (nothing is written). */
  async finish(id: string, heldUntil: number, outcome: { sent: true; at: number } | { sent: false; error: string }): Promise<boolean> {
    const { matchedCount } = await this.notices.updateOne(
      { _id: id, status: 'sending', leaseUntil: heldUntil },
      outcome.sent
        ? { $set: { status: 'sent', sentAt: outcome.at, leaseUntil: null, lastError: null } }
        : { $set: { status: 'failed', leaseUntil: null, lastError: outcome.error } },
    );
    return matchedCount === 1;
  }

  /** A tenant's notices, newest first. */
  async list(tenant: Tenant, limit: number): Promise<AlertNotice[]> {
    return (await this.notices.find(owned(tenant)).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray()).map(toNotice);
  }

  /**
   * Notices to queue again, oldest first: pending ones (their queueing may have been lost), and
   * those a sender took and never finished (it died, or its finish failed, after its message was
   * settled), once their lease ended before the window's `leaseEndedBefore`. Each is stamped `requeuedAt = now` by compare and set over
   * what was read: a notice is queued again at most once per window, by one replica, however long
   * the backlog. Answers the ids stamped here.
   */
  async requeue(now: number, window: RequeueWindow, limit: number): Promise<string[]> {
    const due = await this.notices
      .find(
        {
          status: { $in: ['pending', 'sending'] },
          createdAt: { $lt: window.storedBefore },
          $and: [
            { $or: [{ status: 'pending' }, { leaseUntil: { $lt: window.leaseEndedBefore } }] },
            // null also matches a notice stored before the stamp existed (no field).
            { $or: [{ requeuedAt: null }, { requeuedAt: { $lt: window.requeuedBefore } }] },
          ],
        },
        { projection: { _id: 1, status: 1, leaseUntil: 1, requeuedAt: 1 } },
      )
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
    const stamped = await Promise.all(
      due.map(
        async (doc) =>
          (
            await this.notices.updateOne(
              { _id: doc._id, status: doc.status, leaseUntil: doc.leaseUntil ?? null, requeuedAt: doc.requeuedAt ?? null },
              { $set: { requeuedAt: now } },
            )
          ).matchedCount === 1,
      ),
    );
    return due.filter((_doc, i) => stamped[i]).map((doc) => doc._id);
  }
}
