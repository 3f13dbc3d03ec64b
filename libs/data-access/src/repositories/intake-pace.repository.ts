import type { Connection } from 'mongoose';
import type { IntakeTake } from '@ecomm-sync/domain';
import { driverCollection } from '../driver-collection';
import { intakePaceModel } from '../models/intake-pace.model';
import { onlyDuplicateKeyErrors } from './duplicate-key';

type IntakePaceDoc = { _id: number; due: number };

/**
 * Each portal's intake pace as every gateway replica shares it (decision 57, addendum of
 * 2026-11-28): the rule `takeIntake` (libs/domain) kept in two atomic writes, so replicas never
 * race on a read: `due` is first raised to `now` (an idle portal's past is not banked), then grows
 * by the batch's cost only where that keeps it within `latestDue`.
 */
export class IntakePaceRepository {
  private readonly paces;

  constructor(connection: Connection) {
    this.paces = driverCollection<IntakePaceDoc>(intakePaceModel(connection));
  }

  /** Adds `costMs` to the portal's `due` (from `now` at the earliest) unless it would pass `latestDue`. */
  async take(portalId: number, costMs: number, now: number, latestDue: number): Promise<IntakeTake> {
    await this.raiseTo(portalId, now);
    const taken = await this.paces.findOneAndUpdate(
      { _id: portalId, due: { $lte: latestDue - costMs } },
      { $inc: { due: costMs } },
      { returnDocument: 'after', projection: { due: 1 } },
    );
    if (taken) return { taken: true, due: taken.due };
    const current = await this.paces.findOne({ _id: portalId }, { projection: { due: 1 } });
    return { taken: false, due: current?.due ?? now };
  }

  /** Gives back what a taken batch cost when it was not accepted after all (returnIntake). */
  async giveBack(portalId: number, costMs: number): Promise<void> {
    await this.paces.updateOne({ _id: portalId }, { $inc: { due: -costMs } });
  }

  /** The portal's `due` as stored (null: it never sent while the pace was on). */
  async find(portalId: number): Promise<number | null> {
    return (await this.paces.findOne({ _id: portalId }, { projection: { due: 1 } }))?.due ?? null;
  }

  private async raiseTo(portalId: number, now: number): Promise<void> {
    try {
      await this.paces.updateOne({ _id: portalId }, { $max: { due: now } }, { upsert: true });
    } catch (error) {
      // Another replica inserted the portal's first document between our look and our insert: raise that one.
      if (!onlyDuplicateKeyErrors(error)) throw error;
      await this.paces.updateOne({ _id: portalId }, { $max: { due: now } });
    }
  }
}
