/**
 * How the end-to-end figure sees its objects processed without loading the service it measures.
 * A count of object_syncs by type or time scans the whole collection and holds its lock while the
 * appliers write to it: polled every 500 ms it took 11–16 % of the database server's time in the
 * first pass. So each poll first looks up a sample of the awaited objects by `_id` (an index
 * lookup), and only once the whole sample is there looks up the others, by `_id` too, each until
 * it is found.
 */
import type { ObjectType } from '@ecomm-sync/contracts';
import { keyString } from '@ecomm-sync/data-access';
import type { TestPortal } from '@ecomm-sync/testing';
import { waitFor } from '@ecomm-sync/testing';

const SAMPLE = 24;

/** Positions spread evenly over 0…total-1, the last included. */
export function samplePositions(total: number, size = SAMPLE): number[] {
  if (total <= size) return Array.from({ length: total }, (_, i) => i);
  if (size <= 1) return [total - 1];
  return Array.from({ length: size }, (_, k) => Math.round((k * (total - 1)) / (size - 1)));
}

/**
 * The object_syncs `_id` of the bench's object n of a type: the loads name a type's objects
 * `<type>-0` to `<type>-<total - 1>` without gaps (load.ts), in the default store, no application.
 */
const syncId = (portal: TestPortal, objectType: string, n: number) =>
  keyString({
    portalId: portal.portalId,
    appId: null,
    storeId: 'default',
    objectType: objectType as ObjectType,
    externalObjectId: `${objectType.toLowerCase()}-${n}`,
  });

/** What the watch reads of object_syncs: any driver collection of it. */
interface Statuses {
  find(filter: object, options: object): { toArray(): Promise<unknown[]> };
}

/**
 * `intervalMs`: between polls; `timeoutMs`: how long any one wait may take. The end-to-end pass
 * sends its line items once the watch saw every deal and product applied: polled every 500 ms, the
 * pause from the last deal group's apply to the first line item sent took 560 ms of a 5.5-s pass,
 * with only that group in the pipeline; polled every 100 ms, 166 ms (end-to-end.ts, `gateMs`).
 */
export function syncWatch(syncs: Statuses, portal: TestPortal, { intervalMs = 100, timeoutMs = 20 * 60_000 } = {}) {
  /** Waits until the sample's documents all match `filter`, then until `count()` reaches `total`. */
  const until = async (sample: string[], filter: object, count: () => Promise<number>, total: number, what: string) =>
    waitFor(
      async () => {
        const sampled = await syncs.find({ _id: { $in: sample }, ...filter }, { projection: { _id: 1 } }).toArray();
        return sampled.length >= sample.length && (await count()) >= total;
      },
      { timeoutMs, intervalMs, message: `${total} ${what}` },
    );
  /**
   * Counts `ids` matching `filter` by `_id`, in chunks, asking each poll only for those not found
   * before (matched objects stay matched): the development server serves a find's `_id` list from
   * its index, where a count of it (an aggregation) compares every document with the whole list.
   */
  const countingOf = (ids: string[], filter: object) => {
    const missing = new Set(ids);
    return async () => {
      const asked = [...missing];
      for (let at = 0; at < asked.length; at += 1000) {
        const found = await syncs.find({ _id: { $in: asked.slice(at, at + 1000) }, ...filter }, { projection: { _id: 1 } }).toArray();
        for (const doc of found) missing.delete((doc as { _id: string })._id);
      }
      return ids.length - missing.size;
    };
  };
  return {
    /**
     * Objects 0…count-1 of a type have their CRM ids (what later objects refer to, while the rest of
     * the type may still be on its way): by `_id` only, the sample first, then all of them.
     */
    appliedFirst: (objectType: string, count: number) => {
      const ids = Array.from({ length: count }, (_, n) => syncId(portal, objectType, n));
      return until(
        samplePositions(count).map((n) => ids[n]),
        { crmId: { $ne: null } },
        countingOf(ids, { crmId: { $ne: null } }),
        count,
        `the first ${count} ${objectType} objects to be applied`,
      );
    },
    /** Every one of `total` objects of a type has its CRM id. */
    applied: (objectType: string, total: number) => {
      const ids = Array.from({ length: total }, (_, n) => syncId(portal, objectType, n));
      return until(
        samplePositions(total).map((n) => ids[n]),
        { crmId: { $ne: null } },
        countingOf(ids, { crmId: { $ne: null } }),
        total,
        `${objectType} objects to be applied`,
      );
    },
    /** Every object of `counts` was processed at or after `since` (a processed object stays so). */
    processedSince: (since: number, counts: Record<string, number>, what: string) => {
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      const ids = Object.entries(counts).flatMap(([objectType, n]) => Array.from({ length: n }, (_, i) => syncId(portal, objectType, i)));
      const sample = Object.entries(counts).flatMap(([objectType, n]) => samplePositions(n, SAMPLE / 4).map((i) => syncId(portal, objectType, i)));
      return until(sample, { lastProcessedAt: { $gte: since } }, countingOf(ids, { lastProcessedAt: { $gte: since } }), total, what);
    },
  };
}
