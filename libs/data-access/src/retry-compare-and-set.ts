/** What a round returns when its compare-and-set did not land: another write came first. */
export const CAS_LOST: unique symbol = Symbol('compare-and-set lost');

export interface CompareAndSetRetry {
  /** Rounds at most, the first included. */
  rounds: number;
  /** The longest random wait between two rounds. */
  maxDelayMs: number;
}

/** Enough for a few replicas writing one document at once; each round, one of them lands. */
export const COMPARE_AND_SET_RETRY: CompareAndSetRetry = { rounds: 20, maxDelayMs: 25 };

/**
 * Runs a read–decide–write `round` again, on a fresh read, as long as its compare-and-set lost to
 * another writer, at most `rounds` times; between rounds it waits a random 0 to min(2^n, max) ms
 * so that writers that collided spread out. Returns the first round's result that is not
 * CAS_LOST, or CAS_LOST when every round lost: the caller says what that means to its client.
 */
export async function retryCompareAndSet<T>(
  round: () => Promise<T | typeof CAS_LOST>,
  retry: CompareAndSetRetry = COMPARE_AND_SET_RETRY,
): Promise<T | typeof CAS_LOST> {
  for (let n = 1; ; n++) {
    const outcome = await round();
    if (outcome !== CAS_LOST || n >= retry.rounds) return outcome;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** n, retry.maxDelayMs)));
  }
}
