import type { Request } from 'express';
import type { InstallKey, Listing, ListingPage } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import { integerParam } from './query-params';

/** An admin listing's page size: `limit`, 100 unless asked, at most 1000 (a whole collection is never read at once). */
export const ADMIN_LISTING_LIMIT = { fallback: 100, max: 1000 } as const;

/** How a listing's key is written in `after` and read back from it. */
export interface ListingKey<K> {
  read(text: string): K | undefined;
  write(key: K): string;
  /** What `after` must look like, for the 400. */
  shape: string;
}

export const idKey: ListingKey<number> = {
  read: (text) => (/^\d{1,15}$/.test(text) ? Number(text) : undefined),
  write: String,
  shape: 'an id from paging.next.after',
};

export const textKey: ListingKey<string> = {
  read: (text) => (text.length > 0 && text.length <= 200 ? text : undefined),
  write: (key) => key,
  shape: 'an appId from paging.next.after',
};

/** `<portalId>:<appId>`: the portal id has no colon, so the first one ends it. */
export const installKey: ListingKey<InstallKey> = {
  read: (text) => {
    const colon = text.indexOf(':');
    const portalId = idKey.read(text.slice(0, colon));
    const appId = text.slice(colon + 1);
    return colon > 0 && portalId !== undefined && appId.length > 0 ? { portalId, appId } : undefined;
  },
  write: ({ portalId, appId }) => `${portalId}:${appId}`,
  shape: '<portalId>:<appId> from paging.next.after',
};

/** The page a listing request asks for: `limit` and `after` (the key of the last record of the page before). */
export function listingPage<K>(req: Request, key: ListingKey<K>): ListingPage<K> {
  const limit = integerParam(req.query, 'limit', ADMIN_LISTING_LIMIT.fallback, 1, ADMIN_LISTING_LIMIT.max);
  const given = req.query.after;
  if (given === undefined) return { limit };
  const after = typeof given === 'string' ? key.read(given) : undefined;
  if (after === undefined) throw AppError.badRequest(`Query parameter after must be ${key.shape}, got "${String(given)}"`);
  return { after, limit };
}

/** `{results}`, and `paging.next.after` (the last record's key) when more follow: ask again with it as `after`. */
export function listingAnswer<T, K>(listing: Listing<T>, key: ListingKey<K>, keyOf: (record: T) => K) {
  const last = listing.results.at(-1);
  return { results: listing.results, ...(listing.hasMore && last ? { paging: { next: { after: key.write(keyOf(last)) } } } : {}) };
}
