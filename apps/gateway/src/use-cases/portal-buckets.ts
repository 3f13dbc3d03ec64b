/**
 * Per-portal buckets of a gateway replica (the lane shares), forgetting the ones
 * that are full (a full bucket is the same as none). Once `pruneAt` buckets are kept it drops the
 * full ones, and prunes next only when the map has doubled again: a replica serving more portals
 * than that at once never scans the whole map on every request.
 */
export class PortalBuckets<B> {
  private readonly buckets = new Map<number, B>();
  private nextPruneAt: number;

  constructor(
    private readonly isFull: (bucket: B, now: number) => boolean,
    private readonly pruneAt = 10_000,
  ) {
    this.nextPruneAt = pruneAt;
  }

  /** The portal's bucket, after forgetting the full ones when the map has grown enough. */
  get(portalId: number, now: number): B | undefined {
    if (this.buckets.size >= this.nextPruneAt) {
      for (const [key, bucket] of this.buckets) if (this.isFull(bucket, now)) this.buckets.delete(key);
      this.nextPruneAt = Math.max(this.pruneAt, 2 * this.buckets.size);
    }
    return this.buckets.get(portalId);
  }

  set(portalId: number, bucket: B): void {
    this.buckets.set(portalId, bucket);
  }

  get size(): number {
    return this.buckets.size;
  }
}
