import { CLAIM_GRACE_MS, claimState, isLeftBehind, type ClaimSeen, type OwnerSeen } from './unique-claim-state';

const now = new Date('2026-12-04T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const owner = (live: boolean, holds: boolean): OwnerSeen => ({ live, holds });

describe('claimState', () => {
  it.each<[string, ClaimSeen, OwnerSeen | undefined, string]>([
    [
      'when the owner is live and holds the value, then it is held, however old the claim',
      { objectId: 1, claimedAt: ago(10 * CLAIM_GRACE_MS) },
      owner(true, true),
      'held',
    ],
    ['when the owner holds the value and the claim is new, then it is held', { objectId: 1, claimedAt: now }, owner(true, true), 'held'],
    ['when no object has the id and the claim is new, then its writer may still write it', { objectId: 1, claimedAt: ago(1_000) }, undefined, 'in-flight'],
    [
      'when the owner holds another value and the claim is new, then its writer may still write it',
      { objectId: 1, claimedAt: ago(1_000) },
      owner(true, false),
      'in-flight',
    ],
    ['when the claim is one millisecond short of the grace, then it is in flight', { objectId: 1, claimedAt: ago(CLAIM_GRACE_MS - 1) }, undefined, 'in-flight'],
    [
      'when the claim is as old as the grace and no object has the id, then it was never written',
      { objectId: 1, claimedAt: ago(CLAIM_GRACE_MS) },
      undefined,
      'unwritten',
    ],
    [
      'when the claim is old and the owner holds another value, then it is abandoned',
      { objectId: 1, claimedAt: ago(CLAIM_GRACE_MS) },
      owner(true, false),
      'abandoned',
    ],
    ['when the claim is old and the owner is archived, then it is abandoned', { objectId: 1, claimedAt: ago(CLAIM_GRACE_MS) }, owner(false, true), 'abandoned'],
    ['when the claim has no date (made before claims carried one), then it counts as old', { objectId: 1 }, undefined, 'unwritten'],
    ['when the claim has no date and its owner holds the value, then it is held', { objectId: 1, claimedAt: null }, owner(true, true), 'held'],
  ])('%s', (_name, claim, seen, expected) => {
    expect(claimState(claim, seen, now)).toBe(expected);
  });

  it('when the grace is given, then it replaces the default', () => {
    expect(claimState({ objectId: 1, claimedAt: ago(5_000) }, undefined, now, 5_000)).toBe('unwritten');
    expect(claimState({ objectId: 1, claimedAt: ago(4_999) }, undefined, now, 5_000)).toBe('in-flight');
  });
});

describe('isLeftBehind', () => {
  it.each([
    ['held', false],
    ['in-flight', false],
    ['unwritten', true],
    ['abandoned', true],
  ] as const)('when a claim is %s, then taking it over is %s', (state, expected) => {
    expect(isLeftBehind(state)).toBe(expected);
  });
});
