/**
 * A page of an admin listing, by key (keyset paging): at most `limit` records after the `after`
 * key, in key order, so that a listing of tens of thousands of records is read a page at a time
 * and a record added meanwhile neither shifts nor repeats the next page.
 */
export interface ListingPage<K> {
  /** The key of the last record of the page before; none for the first page. */
  after?: K;
  limit: number;
}

export interface Listing<T> {
  results: T[];
  /** Whether records follow the last of `results`. */
  hasMore: boolean;
}

/** The page from up to `limit + 1` records read in key order: the one past the limit only says that more follow. */
export const listingOf = <T>(records: T[], limit: number): Listing<T> => ({ results: records.slice(0, limit), hasMore: records.length > limit });
