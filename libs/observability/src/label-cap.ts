/** The value a capped label takes once its limit of distinct values is reached. */
export const OTHER_LABEL = 'other';

/**
 * Keeps a label bounded: the first `limit` distinct values are kept as they are, any later one
 * reads as "other". A label per CRM account stays useful for the accounts a replica serves most
 * often without letting a flood of new accounts grow the series without end.
 */
export class LabelCap {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  value(raw: string): string {
    if (this.seen.has(raw)) return raw;
    if (this.seen.size >= this.limit) return OTHER_LABEL;
    this.seen.add(raw);
    return raw;
  }
}
