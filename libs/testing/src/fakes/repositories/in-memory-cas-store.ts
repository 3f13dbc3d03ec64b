import { copy } from '../public-of';

/** A stored value with the revision it was written at, as a reader gets it (a copy). */
export interface Revised<T> {
  rev: number;
  value: T;
}

/**
 * Values by id, each with a revision bumped by every write: the whole of what a fake repository
 * needs when its real twin writes by compare-and-set. Reads and writes copy, as a database does.
 */
export class InMemoryCasStore<T> {
  private readonly values = new Map<string, Revised<T>>();

  /** Stores a new value at revision 0; false when the id is taken. */
  insert(id: string, value: T): boolean {
    if (this.values.has(id)) return false;
    this.values.set(id, { rev: 0, value: copy(value) });
    return true;
  }

  get(id: string): Revised<T> | null {
    const found = this.values.get(id);
    return found ? copy(found) : null;
  }

  /** Every value, in the order inserted. */
  all(): (Revised<T> & { id: string })[] {
    return [...this.values].map(([id, found]) => ({ id, ...copy(found) }));
  }

  /** Writes `next` if the value is still at `expectedRev`; false when it is not, or there is none. */
  compareAndSet(id: string, expectedRev: number, next: T): boolean {
    const found = this.values.get(id);
    if (!found || found.rev !== expectedRev) return false;
    this.values.set(id, { rev: expectedRev + 1, value: copy(next) });
    return true;
  }
}
