import type { MappedChange, ObjectScope } from '@ecomm-sync/contracts';
import type { KeptUpTo, ParkedChange, ParkedChangeRepository } from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';
import { KeptChanges } from './kept-changes';

/** ParkedChangeRepository in memory: one change per object, the newest revision (compareRevisions) stays. */
export class FakeParkedChangeRepository implements PublicOf<ParkedChangeRepository> {
  private readonly kept = new KeptChanges<ParkedChange>();
  private readonly rows = this.kept.rows;

  async park(scope: ObjectScope, changes: readonly { change: MappedChange; reapply: boolean }[], now: number): Promise<void> {
    for (const { change, reapply } of changes) {
      this.kept.keep(scope, change, (stored) => ({
        tenant: copy(scope.tenant),
        storeId: scope.storeId,
        objectType: scope.objectType,
        change: copy(change),
        reapply,
        parkedAt: stored?.parkedAt ?? now,
      }));
    }
  }

  async take(portalId: number, limit: number): Promise<ParkedChange[]> {
    return [...this.rows.values()]
      .filter((row) => row.tenant.portalId === portalId)
      .sort((a, b) => a.parkedAt - b.parkedAt)
      .slice(0, limit)
      .map(copy);
  }

  async count(portalId: number): Promise<number> {
    return [...this.rows.values()].filter((row) => row.tenant.portalId === portalId).length;
  }

  async release(scope: ObjectScope, applied: readonly KeptUpTo[]): Promise<void> {
    this.kept.release(scope, applied);
  }
}
