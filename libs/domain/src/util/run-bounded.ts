/**
 * Runs `work` for each item, at most `concurrency` at a time, in the items' order. After the first
 * failure no further item starts; the ones running are waited for, then that failure is thrown.
 */
export async function runBounded<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.min(Math.max(1, Math.floor(concurrency) || 1), items.length || 1);
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
