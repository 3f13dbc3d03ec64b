import { CAS_LOST, retryCompareAndSet } from './retry-compare-and-set';

describe('retryCompareAndSet', () => {
  const rounds = (outcomes: (string | typeof CAS_LOST)[]) => {
    const played: number[] = [];
    const round = async () => {
      played.push(played.length + 1);
      return outcomes[played.length - 1];
    };
    return { round, played };
  };

  it.each([
    ['the first round lands', 'landed', 1, ['landed']],
    ['two rounds lose, then one lands', 'landed', 3, [CAS_LOST, CAS_LOST, 'landed']],
    ['every round of 3 loses', CAS_LOST, 3, [CAS_LOST, CAS_LOST, CAS_LOST, CAS_LOST]],
  ] as const)('when %s, then it returns %s after %i rounds', async (_case, result, played, outcomes) => {
    const game = rounds([...outcomes]);
    expect(await retryCompareAndSet(game.round, { rounds: 3, maxDelayMs: 1 })).toBe(result);
    expect(game.played).toHaveLength(played);
  });

  it('when a round throws (a refusal), then it is not played again', async () => {
    let played = 0;
    const round = async () => {
      played++;
      throw new Error('refused');
    };
    await expect(retryCompareAndSet(round, { rounds: 3, maxDelayMs: 1 })).rejects.toThrow('refused');
    expect(played).toBe(1);
  });
});
