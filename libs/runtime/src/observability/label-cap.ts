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

/**
 * A CRM account as a label value: its key without the CRM's address. Hosted accounts' keys carry
 * the connection's base URL (`hosted:<url>:<portalId>`, `hosted:<url>:app:<clientId>:<portalId>`);
 * labels never show customers' hosts, so those read `hosted:<portalId>` and
 * `hosted:app:<clientId>:<portalId>`. A
 * bare URL (a client given no account) reads `hosted`.
 */
export function accountLabel(account: string): string {
  if (/^https?:\/\//.test(account)) return 'hosted';
  if (!account.startsWith('hosted:')) return account;
  const app = account.lastIndexOf(':app:');
  if (app >= 0) return `hosted${account.slice(app)}`;
  const last = account.slice(account.lastIndexOf(':') + 1);
  return /^\d+$/.test(last) ? `hosted:${last}` : 'hosted';
}
