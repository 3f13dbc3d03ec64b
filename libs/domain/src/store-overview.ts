import { OBJECT_TYPES, type ErrorType, type ObjectType } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/util';

/** Objects of one type in one store, by state. The states can overlap: an object in the CRM can have an open error from a later change. */
export interface ObjectStateCounts {
  /** Objects a message was received for. */
  received: number;
  /** Linked to a live object in the CRM. */
  applied: number;
  /** With at least one open error. */
  withOpenErrors: number;
  /** Waiting for an object they reference (a line item before its deal). */
  waiting: number;
  /** Received, never processed yet. */
  notProcessed: number;
}

export interface StoreOverview {
  portalId: number;
  appId: string | null;
  storeId: string;
  /** The store's label; the id when the store was deleted or never defined (v1 `default` before install). */
  label: string;
  objectTypes: Record<ObjectType, ObjectStateCounts>;
  openErrorsByType: Partial<Record<ErrorType, number>>;
  openErrors: number;
  lastProcessedAt: number | null;
}

interface Owned {
  portalId: number;
  appId: string | null;
  storeId: string;
}

export interface CountsIn extends Owned {
  objectType: ObjectType;
  received: number;
  processed: number;
  inCrm: number;
  withOpenErrors: number;
  waiting: number;
  lastProcessedAt: number | null;
}

const emptyCounts = (): ObjectStateCounts => ({ received: 0, applied: 0, withOpenErrors: 0, waiting: 0, notProcessed: 0 });
const ownerKey = (owned: Owned) => keyOf(owned.portalId, owned.appId, owned.storeId);

/**
 * One overview per (tenant, store): every store defined, and every store data was received for,
 * ordered by portal, application (direct mode first) and store.
 */
export function storeOverviews(
  counts: readonly CountsIn[],
  openErrors: readonly (Owned & { type: ErrorType; count: number })[],
  labels: readonly (Owned & { label: string })[],
): StoreOverview[] {
  const overviews = new Map<string, StoreOverview>();
  const overview = (owned: Owned): StoreOverview => {
    const key = ownerKey(owned);
    let found = overviews.get(key);
    if (!found) {
      found = {
        portalId: owned.portalId,
        appId: owned.appId,
        storeId: owned.storeId,
        label: owned.storeId,
        objectTypes: Object.fromEntries(OBJECT_TYPES.map((type) => [type, emptyCounts()])) as Record<ObjectType, ObjectStateCounts>,
        openErrorsByType: {},
        openErrors: 0,
        lastProcessedAt: null,
      };
      overviews.set(key, found);
    }
    return found;
  };
  for (const { label, ...owned } of labels) overview(owned).label = label;
  for (const row of counts) {
    const target = overview(row);
    target.objectTypes[row.objectType] = {
      received: row.received,
      applied: row.inCrm,
      withOpenErrors: row.withOpenErrors,
      waiting: row.waiting,
      notProcessed: Math.max(0, row.received - row.processed),
    };
    if (row.lastProcessedAt !== null && (target.lastProcessedAt === null || row.lastProcessedAt > target.lastProcessedAt))
      target.lastProcessedAt = row.lastProcessedAt;
  }
  for (const { type, count, ...owned } of openErrors) {
    const target = overview(owned);
    target.openErrorsByType[type] = (target.openErrorsByType[type] ?? 0) + count;
    target.openErrors += count;
  }
  return [...overviews.values()].sort((a, b) => a.portalId - b.portalId || (a.appId ?? '').localeCompare(b.appId ?? '') || a.storeId.localeCompare(b.storeId));
}
