import { UsageError } from './usage-error';

/** The admin listings the gateway answers a page at a time (credentials are listed for one owner, whole). */
export const PAGED_LISTINGS: readonly string[] = ['portals', 'developers', 'apps', 'installs'];

/** How many records a listing asks the gateway for at a time unless `--page-size` says (its most). */
export const LISTING_PAGE_SIZE = 1000;

/** Whether an argument is the `--page-size` flag (`--page-size <n>` or `--page-size=<n>`). */
export const isPageSizeFlag = (arg: string): boolean => arg === '--page-size' || arg.startsWith('--page-size=');

/** `--page-size <n>` or `--page-size=<n>` (1 to 1000, once) taken out of a listing's arguments. */
export function pageSizeOf(args: string[]): { pageSize: number; rest: string[] } {
  const rest: string[] = [];
  let given: string | undefined;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (!isPageSizeFlag(arg)) {
      rest.push(arg);
      continue;
    }
    if (given !== undefined) throw new UsageError('--page-size is given more than once; give it once');
    given = arg === '--page-size' ? (args[++at] ?? '') : arg.slice('--page-size='.length);
  }
  if (given === undefined) return { pageSize: LISTING_PAGE_SIZE, rest };
  const pageSize = Number(given);
  if (!/^\d+$/.test(given) || pageSize < 1 || pageSize > LISTING_PAGE_SIZE)
    throw new UsageError(`--page-size must be an integer from 1 to ${LISTING_PAGE_SIZE}, got "${given}"`);
  return { pageSize, rest };
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
