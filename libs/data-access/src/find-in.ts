/** How many values one `$in` read names at most (see findIn). */
const IN_CHUNK_SIZE = 25;

interface Findable<T> {
  find(filter: object, options?: object): { toArray(): Promise<T[]> };
}

/**
 * The documents whose `field` is one of `values`, read in concurrent chunks. The development
 * server checks every document an index found against the whole `$in` list, so one list of n
 * values costs n² comparisons (a fifth of its CPU in the end-to-end benchmark); chunks keep that
 * small, and being concurrent they add no round-trip time. MongoDB serves either shape alike.
 */
export async function findIn<T>(collection: Findable<T>, field: string, values: readonly unknown[], options?: object): Promise<T[]> {
  const unique = [...new Set(values)];
  const chunks: unknown[][] = [];
  for (let from = 0; from < unique.length; from += IN_CHUNK_SIZE) chunks.push(unique.slice(from, from + IN_CHUNK_SIZE));
  return (await Promise.all(chunks.map((chunk) => collection.find({ [field]: { $in: chunk } }, options).toArray()))).flat();
}
