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
  ])('%s', (_, earlier, portalId, now, expected) => {
    const { sending, at } = portals();
    for (const [id, ms] of earlier) {
      at(ms);
      sending.sent(id);
    }
    at(now);
    expect(sending.sent(portalId)).toBe(expected);
  });

  it('when portals went quiet, then they are forgotten and no longer count, and asking notes nothing', () => {
    const { sending, at } = portals();
    sending.sent(2);
    sending.sent(3);
    at(10_000);
    expect(sending.othersThan(1)).toBe(false);
    expect(sending.sent(1)).toBe(false);
    at(11_000);
    expect(sending.othersThan(1)).toBe(false);
    expect(sending.othersThan(2)).toBe(true);
  });
});
