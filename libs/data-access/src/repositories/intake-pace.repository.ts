import type { Connection } from 'mongoose';
import { type IntakeLimits, type IntakeTake, takeIntake } from '@ecomm-sync/domain';
import { driverCollection } from '../driver-collection';
import { intakePaceModel } from '../models/intake-pace.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

type IntakePaceDoc = { _id: number; due: number };

/** Rounds of conditional writes a take tries before it gives up (other replicas changed the portal's `due` each time). */
const TAKE_ROUNDS = 4;

/**
 * Each portal's intake pace as every replica shares it (decision 57, addendum of 2026-11-28): the
 * rule `takeIntake` (libs/domain) kept by conditional atomic writes, so replicas never race on a
 * read. A busy portal's take is one write (its `due` grows by the cost where it stays within
 * `latestDue`), an idle one's two (then its `due` is set from now); a refusal reads once more.
 */
export class IntakePaceRepository {
  private readonly paces;

  constructor(connection: Connection) {
    this.paces = driverCollection<IntakePaceDoc>(intakePaceModel(connection));
  }

  /**
   * Adds `costMs` to the portal's `due` (from now at the earliest, and from now over a `due` beyond
   * `plausibleUntil`) unless it would pass `latestDue`. Throws when other replicas changed it in every round.
   */
  async take(portalId: number, costMs: number, now: number, limits: IntakeLimits): Promise<IntakeTake> {
    const { latestDue, plausibleUntil } = limits;
    const after = { returnDocument: 'after', projection: { due: 1 } } as const;
    for (let round = 0; round < TAKE_ROUNDS; round++) {
      const busy = await this.paces.findOneAndUpdate({ _id: portalId, due: { $gte: now, $lte: latestDue - costMs } }, { $inc: { due: costMs } }, after);
      if (busy) return { taken: true, due: busy.due };
      if (now <= latestDue - costMs) {
        const idle = await this.paces.findOneAndUpdate(
          { _id: portalId, $or: [{ due: { $lt: now } }, { due: { $gt: plausibleUntil } }] },
          { $set: { due: now + costMs } },
          after,
        );
        if (idle) return { taken: true, due: idle.due };
      }
      const current = await this.paces.findOne({ _id: portalId }, { projection: { due: 1 } });
      if (!current) {
        const first = takeIntake(undefined, costMs, now, limits);
        if (!first.taken || (await this.insertFirst(portalId, first.due))) return first;
        continue;
      }
      const take = takeIntake(current.due, costMs, now, limits);
      if (!take.taken) return take;
      // Another replica moved `due` between our writes and this look: try again.
    }
    throw new Error(`the intake pace of portal ${portalId} changed under each of ${TAKE_ROUNDS} tries`);
  }

  /** Gives back what a taken batch cost when it was not accepted after all (returnIntake): never to before now. */
  async giveBack(portalId: number, costMs: number, now: number): Promise<void> {
    const whole = await this.paces.updateOne({ _id: portalId, due: { $gte: now + costMs } }, { $inc: { due: -costMs } });
    if (whole.matchedCount === 0) await this.paces.updateOne({ _id: portalId, due: { $gt: now, $lt: now + costMs } }, { $set: { due: now } });
  }

  /**
   * Portals whose `due` is after `since`, at most `limit` of them: those that took intake since then
   * (a take leaves `due` after its own time) or still have a backlog. It reads without an index:
   * one small document per portal, asked about once a second per process (SendingPortals). The
   * server gives up after `maxTimeMs` (default: no limit).
   */
  async sendingSince(since: number, limit: number, maxTimeMs?: number): Promise<number[]> {
    const docs = await this.paces
      .find({ due: { $gt: since } }, { projection: { _id: 1 }, ...(maxTimeMs === undefined ? {} : { maxTimeMS: maxTimeMs }) })
      .limit(limit)
      .toArray();
    return docs.map((doc) => doc._id);
  }

  /** The portal's `due` as stored (null: it never sent while the pace was on). */
  async find(portalId: number): Promise<number | null> {
    return (await this.paces.findOne({ _id: portalId }, { projection: { due: 1 } }))?.due ?? null;
  }

  /** The portal's first document; false when another replica inserted it first. */
  private async insertFirst(portalId: number, due: number): Promise<boolean> {
    try {
      await this.paces.insertOne({ _id: portalId, due });
      return true;
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
      return false;
    }
  }
}
