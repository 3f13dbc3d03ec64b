export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** The middle one of `items` ranked by `key` (the upper middle of an even count). */
export function middleBy<T>(items: readonly T[], key: (item: T) => number): T {
  if (items.length === 0) throw new Error('middleBy needs at least one item');
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)];
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `count` tasks with at most `concurrency` at a time. */
export async function pool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}
