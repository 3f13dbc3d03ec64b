import { SendingPortals } from './sending-portals';

describe('SendingPortals', () => {
  function portals() {
    let now = 0;
    const sending = new SendingPortals(5_000, () => now);
    return { sending, at: (ms: number) => (now = ms) };
  }

  it.each<[string, [number, number][], number, number, boolean]>([
    ['when a portal sends alone, then no other portal is sending', [], 1, 0, false],
    ['when it sends again alone, then still none is', [[1, 0]], 1, 4_000, false],
    ['when another portal sent within the window, then another is sending', [[2, 1_000]], 1, 6_000, true],
    ['when another portal sent just outside the window, then none is', [[2, 1_000]], 1, 6_001, false],
    [
      'when the other portal is older and this one sent since, then the other still counts while within the window',
      [
        [2, 0],
        [1, 3_000],
      ],
      1,
      4_000,
      true,
    ],
    [
      'when the oldest went quiet but a later one did not, then the later one counts',
      [
        [2, 0],
        [3, 3_000],
      ],
      1,
      6_000,
      true,
    ],
    [
      'when every other portal went quiet, then none is sending, however many there were',
      [
        [2, 0],
        [3, 500],
        [4, 900],
      ],
      1,
      6_000,
      false,
    ],
  ])('%s', (_, earlier, portalId, now, expected) => {
    const { sending, at } = portals();
    for (const [id, ms] of earlier) {
      at(ms);
      sending.sent(id);
    }
    at(now);
    expect(sending.sent(portalId)).toBe(expected);
  });
});
