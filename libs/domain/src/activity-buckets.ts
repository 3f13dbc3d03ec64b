export type ActivityWindow = 'hour' | 'day';

export interface ActivityBucket {
  /** Start of the bucket (epoch ms); it lasts `bucketMs`. */
  from: number;
  received: number;
  applied: number;
}

/** The last hour in 12 buckets of 5 minutes; the last day in 24 buckets of an hour. */
export const ACTIVITY_WINDOWS: Record<ActivityWindow, { buckets: number; bucketMs: number }> = {
  hour: { buckets: 12, bucketMs: 5 * 60_000 },
  day: { buckets: 24, bucketMs: 60 * 60_000 },
};

/** Where a window starts when it ends at `now`: buckets are aligned to their length, the last one holds `now`. */
export const activityStart = (window: ActivityWindow, now: number): number => {
  const { buckets, bucketMs } = ACTIVITY_WINDOWS[window];
  return (Math.floor(now / bucketMs) - buckets + 1) * bucketMs;
};

/** Counts receive and apply times into the window's buckets; times outside it are left out. */
export function activityBuckets(received: readonly number[], applied: readonly number[], window: ActivityWindow, now: number): ActivityBucket[] {
  const { buckets, bucketMs } = ACTIVITY_WINDOWS[window];
  const start = activityStart(window, now);
  const result = Array.from({ length: buckets }, (_, n) => ({ from: start + n * bucketMs, received: 0, applied: 0 }));
  const add = (times: readonly number[], field: 'received' | 'applied') => {
    for (const at of times) {
      const n = Math.floor((at - start) / bucketMs);
      if (n >= 0 && n < buckets) result[n][field] += 1;
    }
  };
  add(received, 'received');
  add(applied, 'applied');
  return result;
}
