import { UsageError } from './usage-error';

/** The admin listings the gateway answers a page at a time (credentials are listed for one owner, whole). */
export const PAGED_LISTINGS: readonly string[] = ['portals', 'developers', 'apps', 'installs'];

/** How many records a listing asks the gateway for at a time unless `--page-size` says (its most). */
export const LISTING_PAGE_SIZE = 1000;

/** `--page-size <n>` (1 to 1000) taken out of a listing's arguments. */
export function pageSizeOf(args: string[]): { pageSize: number; rest: string[] } {
  const at = args.indexOf('--page-size');
  if (at === -1) return { pageSize: LISTING_PAGE_SIZE, rest: args };
  const pageSize = Number(args[at + 1]);
  if (!/^\d+$/.test(args[at + 1] ?? '') || pageSize < 1 || pageSize > LISTING_PAGE_SIZE)
    throw new UsageError(`--page-size must be an integer from 1 to ${LISTING_PAGE_SIZE}, got "${args[at + 1] ?? ''}"`);
  return { pageSize, rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

interface ListingAnswer {
  results: unknown[];
  paging?: { next?: { after?: string } };
}

/**
 * Every record of an admin listing: the gateway answers a page at a time (`limit`, and
 * `paging.next.after` while more follow), so the pages are asked for one after the other.
 */
export async function everyPage(get: (url: string) => Promise<unknown>, url: string, pageSize: number): Promise<unknown[]> {
  const results: unknown[] = [];
  const asked = new Set<string>();
  const pageUrl = (after?: string) =>
    `${url}${url.includes('?') ? '&' : '?'}limit=${pageSize}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`;
  let after: string | undefined;
  do {
    const page = (await get(pageUrl(after))) as ListingAnswer;
    results.push(...page.results);
    const next = page.paging?.next?.after;
    // A gateway that names a page it answered already would be asked for it for ever.
    if (next !== undefined && asked.has(next)) throw new Error(`the listing at ${url} named the page after "${next}" again`);
    if (next !== undefined) asked.add(next);
    after = next;
  } while (after !== undefined);
  return results;
}
