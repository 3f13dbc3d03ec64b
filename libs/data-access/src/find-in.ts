/** How many values one `$in` read names at most (see findIn). */
const IN_CHUNK_SIZE = 1_000;

interface Findable<T> {
  find(filter: object, options?: object): { toArray(): Promise<T[]> };
}

/**
 * The documents whose `field` is one of `values`, in one read per 1,000 values (reads run
 * concurrently), so that no command grows without bound. Until 2026-11-28 the development server
 * compared every document its index found with the whole `$in` list (n² for n values) and reads
 * went in chunks of 25, four commands for a 100-object batch; it now takes the index's answer for
 * an `_id` list as MongoDB does (tools/mongo-server, IdIndexLookup).
 */
export async function findIn<T>(collection: Findable<T>, field: string, values: readonly unknown[], options?: object): Promise<T[]> {
  const unique = [...new Set(values)];
  const chunks: unknown[][] = [];
  for (let from = 0; from < unique.length; from += IN_CHUNK_SIZE) chunks.push(unique.slice(from, from + IN_CHUNK_SIZE));
  return (await Promise.all(chunks.map((chunk) => collection.find({ [field]: { $in: chunk } }, options).toArray()))).flat();
}
