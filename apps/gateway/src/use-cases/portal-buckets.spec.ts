import { PortalBuckets } from './portal-buckets';

describe('PortalBuckets', () => {
  it('when the map reaches the prune size, then the full buckets are forgotten and the others kept', () => {
    const buckets = new PortalBuckets<{ full: boolean }>((bucket) => bucket.full, 4);
    [true, false, true, false].forEach((full, portalId) => buckets.set(portalId, { full }));

    expect(buckets.get(1, 0)).toEqual({ full: false });
    expect(buckets.size).toBe(2);
    expect(buckets.get(0, 0)).toBeUndefined();
  });

  it('when most buckets are not full, then the next prune waits until the map has doubled, not every request', () => {
    let checks = 0;
    const buckets = new PortalBuckets<{ full: boolean }>((bucket) => (checks++, bucket.full), 4);
    for (let portalId = 0; portalId < 4; portalId++) buckets.set(portalId, { full: false });

    buckets.get(0, 0);
    buckets.get(0, 0);
    buckets.set(4, { full: false });
    buckets.get(0, 0);
    expect(checks).toBe(4);

    for (let portalId = 5; portalId < 8; portalId++) buckets.set(portalId, { full: false });
    buckets.get(0, 0);
    expect(checks).toBe(12);
  });
});
