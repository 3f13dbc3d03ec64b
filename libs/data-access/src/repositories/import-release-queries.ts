import type { mongo } from 'mongoose';

/**
 * Complete imports whose release is left to whoever takes it (decision 57): completed by `before`,
 * not released, and no releaser progressed after `before` (none ever, one that stopped, or one that
 * dropped its claim after a failure). On the `{status, releasedAt, completedAt}` index.
 */
export const waitingForRelease = (before: number): mongo.Filter<mongo.Document> => ({
  status: 'complete',
  releasedAt: null,
  completedAt: { $lte: before },
  $or: [{ releaseProgressAt: null }, { releaseProgressAt: { $lte: before } }],
});

/**
 * The release backlog: imports waiting for their release (above) of portals none of whose releases
 * runs (a portal's imports are released one at a time: another replica would not take the second);
 * how many portals they are of, and when the oldest completed.
 */
export async function readReleaseBacklog(imports: mongo.Collection, before: number): Promise<{ portals: number; oldestCompletedAt: number | null }> {
  const running = await imports.distinct('portalId', { status: 'complete', releasedAt: null, releaseProgressAt: { $gt: before } });
  const waiting = { ...waitingForRelease(before), ...(running.length > 0 ? { portalId: { $nin: running } } : {}) };
  const [portals, oldest] = await Promise.all([
    imports.distinct('portalId', waiting),
    imports
      .find(waiting, { projection: { _id: 0, completedAt: 1 } })
      .sort({ completedAt: 1 })
      .limit(1)
      .next(),
  ]);
  return { portals: portals.length, oldestCompletedAt: typeof oldest?.completedAt === 'number' ? oldest.completedAt : null };
}
