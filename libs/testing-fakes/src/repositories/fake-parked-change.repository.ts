import type { MappedChange, ObjectType, Tenant } from '@ecomm-sync/contracts';
import type { KeptUpTo, ParkedChange, ParkedChangeRepository } from '@ecomm-sync/data-access';
import { compareRevisions } from '@ecomm-sync/domain';
import { keyOf } from '@ecomm-sync/util';
import { copy, type PublicOf } from '../public-of';

const objectKey = (tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectId: string) =>
  keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId);

/** ParkedChangeRepository in memory: one change per object, the newest revision (compareRevisions) stays. */
export class FakeParkedChangeRepository implements PublicOf<ParkedChangeRepository> {
  private readonly rows = new Map<string, ParkedChange>();

  async park(
    tenant: Tenant,
    storeId: string,
    objectType: ObjectType,
    changes: readonly { change: MappedChange; reapply: boolean }[],
    now: number,
  ): Promise<void> {
    for (const { change, reapply } of changes) {
      const key = objectKey(tenant, storeId, objectType, change.externalObjectId);
      const stored = this.rows.get(key);
      if (stored && compareRevisions(stored.change, change) > 0) continue;
      this.rows.set(key, { tenant: copy(tenant), storeId, objectType, change: copy(change), reapply, parkedAt: stored?.parkedAt ?? now });
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

  async release(tenant: Tenant, storeId: string, objectType: ObjectType, applied: readonly KeptUpTo[]): Promise<void> {
    for (const revision of applied) {
      const key = objectKey(tenant, storeId, objectType, revision.externalObjectId);
      const stored = this.rows.get(key);
      if (stored && compareRevisions(stored.change, revision) <= 0) this.rows.delete(key);
    }
  }
}
