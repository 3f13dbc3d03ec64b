/**
 * Serialises work on the same objects within one process: a piece of work starts once every
 * earlier piece that holds any of its keys has finished. All keys are queued for at once, in
 * arrival order, so pieces never wait for each other in a cycle. Work on disjoint keys runs
 * concurrently.
 *
 * The applier runs many batches at a time; two batches holding different revisions of one object
 * must not write it to the CRM concurrently, or the older write may land last
 * (docs/decisions/0018-newest-wins-under-concurrency.md).
 */
export class ObjectLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: Iterable<string>, work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const before = unique.map((key) => this.tails.get(key)).filter((tail): tail is Promise<void> => tail !== undefined);
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    for (const key of unique) this.tails.set(key, done);
    try {
      await Promise.all(before);
      return await work();
    } finally {
      release();
      // The last holder of a key removes it, so the map holds only keys with work queued or running.
      for (const key of unique) if (this.tails.get(key) === done) this.tails.delete(key);
    }
  }

  /** Keys held or waited for (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
