import { waitingSince, type LagMarker } from './sync-lag';

describe('waitingSince', () => {
  const cases: [string, LagMarker, number | null][] = [
    ['when nothing was processed yet, then the object waits since its marker', { since: 100, rev: 150, appliedRev: 0 }, 100],
    ['when its newest revision was processed, then it waits no more', { since: 100, rev: 150, appliedRev: 150 }, null],
    ['when a newer revision than the newest was recorded (a re-apply), then it waits no more', { since: 100, rev: 150, appliedRev: 160 }, null],
    ['when the marker was set after the processed revision, then it waits since the marker', { since: 120, rev: 150, appliedRev: 110 }, 120],
    ['when the marker is older than the processed revision (stale), then it waits since its newest revision', { since: 100, rev: 150, appliedRev: 110 }, 150],
    ['when the marker is exactly the processed revision, then it is stale too', { since: 110, rev: 150, appliedRev: 110 }, 150],
  ];
  it.each(cases)('%s', (_name, marker, expected) => {
    expect(waitingSince(marker)).toBe(expected);
  });
});
