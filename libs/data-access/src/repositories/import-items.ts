import type { ObjectType } from '@ecomm-sync/contracts';

/** One message of an import page, as stored (all import messages are upserts). */
export interface ImportItem {
  externalObjectId: string;
  properties: Record<string, unknown>;
  associations?: Partial<Record<ObjectType, string[]>>;
}

/**
 * An import message as stored: its properties as [name, value] pairs, as the raw log keeps them
 * (sender names may hold characters MongoDB keys may not: `$email`, `a.b`). Pages stored before
 * hold them as a map, read as such.
 */
export type StoredItem = Omit<ImportItem, 'properties'> & { properties: [string, unknown][] | Record<string, unknown> };

export const storedItem = ({ properties, ...item }: ImportItem): StoredItem => ({ ...item, properties: Object.entries(properties) });

export const itemOf = ({ properties, ...item }: StoredItem): ImportItem => ({
  ...item,
  properties: Array.isArray(properties) ? Object.fromEntries(properties) : properties,
});
