import { OBJECT_TYPES, type ErrorType, type ObjectType } from '@ecomm-sync/contracts';
import { keyOf } from './util';
import { inspectedStatus } from './dry-run';

/**
 * Objects of one type in one store, each in exactly one state (the inspector's, `inspectedStatus`):
 * waiting, else with open errors, else applied or deleted, else not processed; the states add up to
 * `received`.
 */
export interface ObjectStateCounts {
  /** Objects a message was received for. */
  received: number;
  /** Linked to a live object in the CRM, nothing open. */
  applied: number;
  /** With at least one open error (and not waiting). */
  withOpenErrors: number;
  /** Waiting for an object they reference (a line item before its deal), whatever else is open for them. */
  waiting: number;
  /** Their CRM object was deleted (a delete was applied), nothing open. */
  deleted: number;
  /** Received, not in the CRM yet (never processed, or processed without a CRM object), nothing open. */
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
  archivedInCrm: number;
  withOpenErrors: number;
  waiting: number;
  lastProcessedAt: number | null;
  /** The facts of each object that waits or has an open error. */
  flagged: readonly FlaggedFacts[];
}

/** What is stored about one object that waits or has an open error. */
export interface FlaggedFacts {
  waiting: boolean;
  openError: boolean;
  processed: boolean;
  crmId: number | null;
  archived: boolean;
}

const emptyCounts = (): ObjectStateCounts => ({ received: 0, applied: 0, withOpenErrors: 0, waiting: 0, deleted: 0, notProcessed: 0 });

/**
 * Each object in one state: the flagged ones (waiting or with an open error) by `inspectedStatus`,
 * the rest from the totals less the flagged ones they hold; not processed is what is left.
 */
export function objectStateCounts(row: CountsIn): ObjectStateCounts {
  let waiting = 0;
  let withOpenErrors = 0;
  let flaggedLive = 0;
  let flaggedDeleted = 0;
  for (const facts of row.flagged) {
    const status = inspectedStatus({
      received: true,
      processed: facts.processed,
      crmId: facts.crmId,
      archived: facts.archived,
      openErrors: facts.openError ? 1 : 0,
      waiting: facts.waiting,
    });
    if (status === 'waiting') waiting++;
    else withOpenErrors++;
    if (facts.crmId !== null) {
      if (facts.archived) flaggedDeleted++;
      else flaggedLive++;
    }
  }
  const applied = Math.max(0, row.inCrm - flaggedLive);
  const deleted = Math.max(0, row.archivedInCrm - flaggedDeleted);
  const notProcessed = Math.max(0, row.received - applied - deleted - waiting - withOpenErrors);
  return { received: row.received, applied, withOpenErrors, waiting, deleted, notProcessed };
}
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
    target.objectTypes[row.objectType] = objectStateCounts(row);
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
