/**
 * A small time-bounded cache for per-request lookups (portal by API key, store existence).
 * Entries live `ttlMs`; the map is bounded by `maxEntries` (oldest evicted first). Concurrent
 * misses of one key share one lookup.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const entry = this.entries.get(key);
    // A load that a change overtook (deleteWhere) is not joined: its answer may predate the change.
    if (entry && this.clock() - entry.at < this.ttlMs && entry.changedMeanwhile === undefined) return entry.value;
    const value = load();
    const loaded: Entry<V> = { at: this.clock(), value };
    this.entries.delete(key);
    this.entries.set(key, loaded);
    value.then(
      (settled) => {
        loaded.settled = { value: settled };
        const changes = loaded.changedMeanwhile;
        loaded.changedMeanwhile = undefined;
        // Changes announced while it loaded: its answer may predate them.
        if (changes?.some((matches) => matches(settled)) && this.entries.get(key) === loaded) this.entries.delete(key);
      },
      () => this.entries.get(key) === loaded && this.entries.delete(key), // a failed lookup is not cached
    );
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** What this process just wrote or learned: reads within the TTL get it without a lookup. */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { at: this.clock(), value: Promise.resolve(value), settled: { value } });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets one key (what it caches changed here): the next get loads it again. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets the keys that start with `prefix` (keyPrefixOf: one tenant's entries); the others stay cached. */
  deleteStartingWith(prefix: string): void {
    // Deleting the entry just visited is safe while iterating a Map.
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /**
   * Forgets the entries whose value `matches` (one install's tokens). One still loading is not joined
   * by later gets (they load again), and is forgotten when it settles on a matching value, which may
   * have been read from before the change. The others stay cached.
   */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (entry.settled === undefined) (entry.changedMeanwhile ??= []).push(matches);
      else if (matches(entry.settled.value)) this.entries.delete(key);
    }
  }

  /** Forgets everything (a credential was revoked, a portal disabled). */
  clear(): void {
    this.entries.clear();
  }
}

interface Entry<V> {
  at: number;
  value: Promise<V>;
  /** The loaded value, once it is. */
  settled?: { value: V };
  /** The changes `deleteWhere` announced while this loaded: checked against the value when it settles; meanwhile nobody joins the load. */
  changedMeanwhile?: ((value: V) => boolean)[];
}
