import type { MappedChange, ObjectScope, Tenant } from '@ecomm-sync/contracts';
import type { KeptUpTo, WaitingObject, WaitingObjectRepository } from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';
import { KeptChanges, keptKey } from './kept-changes';

type Row = WaitingObject & { triedAt: number };

const toWaiting = ({ triedAt: _triedAt, ...entry }: Row): WaitingObject => copy(entry);

/** WaitingObjectRepository in memory: one waiting change per object, the newest revision (compareRevisions) stays. */
export class FakeWaitingObjectRepository implements PublicOf<WaitingObjectRepository> {
  private readonly kept = new KeptChanges<Row>();
  private readonly rows = this.kept.rows;

  /** Every waiting change, within its window or not: for the fakes of the console's read models. */
  scan(): WaitingObject[] {
    return [...this.rows.values()].map(toWaiting);
  }

  async wait(
    scope: ObjectScope,
    entries: { change: MappedChange; waitingFor: string[] }[],
    now: number,
    windowMs: number,
    { reapply = false }: { reapply?: boolean } = {},
  ): Promise<void> {
    for (const { change, waitingFor } of entries) {
      this.kept.keep(scope, change, (stored) => ({
        tenant: copy(scope.tenant),
        storeId: scope.storeId,
        objectType: scope.objectType,
        change: copy(change),
        waitingFor: [...waitingFor],
        since: stored?.since ?? now,
        until: stored?.until ?? now + windowMs,
        reapply,
        triedAt: now,
      }));
    }
  }

  async release(scope: ObjectScope, processed: readonly KeptUpTo[]): Promise<void> {
    this.kept.release(scope, processed);
  }

  async waitingFor(tenant: Tenant, storeId: string, keys: readonly string[], now: number): Promise<WaitingObject[]> {
    return [...this.rows.values()]
      .filter((row) => row.tenant.portalId === tenant.portalId && row.tenant.appId === tenant.appId && row.storeId === storeId)
      .filter((row) => row.until > now && row.waitingFor.some((key) => keys.includes(key)))
      .map(toWaiting);
  }

  async due(now: number, limit: number): Promise<WaitingObject[]> {
    return [...this.rows.values()]
      .filter((row) => row.until > now)
      .sort((a, b) => a.triedAt - b.triedAt)
      .slice(0, limit)
      .map(toWaiting);
  }

  async markTried(entries: readonly WaitingObject[], now: number): Promise<void> {
    for (const entry of entries) {
      const row = this.rows.get(keptKey(entry, entry.change.externalObjectId));
      if (row) row.triedAt = now;
    }
  }

  async expire(now: number): Promise<number> {
    let count = 0;
    for (const [key, row] of this.rows) {
      if (row.until > now) continue;
      this.rows.delete(key);
      count++;
    }
    return count;
  }
}
