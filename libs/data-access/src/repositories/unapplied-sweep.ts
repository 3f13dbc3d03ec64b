import type { mongo } from 'mongoose';
import { LAG_NOT_KNOWN, waitingSince, type OldestUnapplied } from '@ecomm-sync/domain';
import type { KeyedDoc } from '../driver-collection';
import { findIn } from '../find-in';

/** How much one read of the sync lag judges at most: pages of marked states, oldest first. */
export interface UnappliedSweep {
  pageSize: number;
  maxPages: number;
}

/** 40 pages of 500: one read clears up to 20,000 markers of states processed since the last one. */
export const UNAPPLIED_SWEEP: UnappliedSweep = { pageSize: 500, maxPages: 40 };

/** A state's marker, as the sweep reads it. */
interface Marked {
  _id: string;
  rev: number;
  since: number;
}

/**
 * The sync lag of the states `tenantFilter` selects (decision 0053, addendum). The marker the
 * mapper sets (`unappliedSince`) is cleared here, not by the applier (no write on its hot path):
 * marked states are read oldest first, in pages, beside their statuses (object_syncs, same `_id`);
 * a state whose revision was processed (`appliedRev >= rev`: applied, or failed, since an error
 * record is an outcome) loses its marker by compare and set on `{_id, rev}`, so a state written
 * meanwhile keeps it. A stale marker (older than the processed revision) reads as the newest
 * revision (waitingSince).
 *
 * The answer is known once a waiting state is no later than the last marker judged (every state
 * after it was accepted no earlier); the sweep still goes on while its pages clear markers, so that a
 * long wait at the front never lets processed markers pile up behind it, and stops at the first
 * page that clears none. At most `sweep.maxPages` pages: a read that ends before the answer is
 * known says LAG_NOT_KNOWN (the evaluator keeps the rule's state), never a lag it did not see.
 */
export async function sweepUnapplied(
  states: mongo.Collection<KeyedDoc>,
  syncs: mongo.Collection<KeyedDoc>,
  tenantFilter: Record<string, unknown>,
  sweep: UnappliedSweep,
): Promise<OldestUnapplied> {
  const cursor = states
    .find({ ...tenantFilter, unappliedSince: { $gte: 0 } }, { projection: { _id: 1, rev: 1, unappliedSince: 1 } })
    .sort({ unappliedSince: 1 })
    .batchSize(sweep.pageSize);
  try {
    let oldest: number | null = null;
    let lastJudged = -Infinity;
    for (let pages = 0; pages < sweep.maxPages; pages++) {
      const page: Marked[] = [];
      while (page.length < sweep.pageSize) {
        const doc = await cursor.next();
        if (!doc) break;
        page.push({ _id: doc._id, rev: Number(doc.rev), since: Number(doc.unappliedSince) });
      }
      if (page.length === 0) return oldest;
      const processed = await judge(syncs, page, (since) => (oldest = Math.min(oldest ?? Infinity, since)));
      if (processed.length > 0) {
        await states.bulkWrite(
          processed.map(({ _id, rev }) => ({ updateOne: { filter: { _id, rev }, update: { $unset: { unappliedSince: '' } } } })),
          { ordered: false },
        );
      }
      lastJudged = page[page.length - 1].since;
      if (page.length < sweep.pageSize) return oldest;
      if (oldest !== null && oldest <= lastJudged && processed.length === 0) return oldest;
    }
    return oldest !== null && oldest <= lastJudged ? oldest : LAG_NOT_KNOWN;
  } finally {
    await cursor.close();
  }
}

/** The page's processed states (their markers can go); each waiting one's wait goes to `waiting`. */
async function judge(syncs: mongo.Collection<KeyedDoc>, page: Marked[], waiting: (since: number) => void): Promise<Marked[]> {
  const statuses = await findIn(
    syncs,
    '_id',
    page.map((state) => state._id),
    { projection: { appliedRev: 1 } },
  );
  const appliedRevs = new Map(statuses.map((sync) => [sync._id, Number(sync.appliedRev ?? 0)]));
  const processed: Marked[] = [];
  for (const state of page) {
    const since = waitingSince({ since: state.since, rev: state.rev, appliedRev: appliedRevs.get(state._id) ?? 0 });
    if (since === null) processed.push(state);
    else waiting(since);
  }
  return processed;
}
