import type { MappedChange, ObjectScope } from '@ecomm-sync/contracts';
import type { KeptUpTo } from '@ecomm-sync/data-access';
import { isKeptChangeDone, keyOf, replacesKeptChange } from '@ecomm-sync/domain';

/** A kept change's row key: its object. */
export const keptKey = ({ tenant, storeId, objectType }: ObjectScope, externalObjectId: string) =>
  keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId);

/**
 * Rows that keep one change per object, the newest revision (libs/domain's revision-acceptance), as the real
 * repositories' keepNewestChanges / releaseKeptChanges do: the fakes of parked and waiting changes.
 */
export class KeptChanges<R extends { change: MappedChange }> {
  readonly rows = new Map<string, R>();

  /** Keeps `change` unless a newer revision is kept; `row` builds it from what was kept before. */
  keep(scope: ObjectScope, change: MappedChange, row: (stored: R | undefined) => R): void {
    const key = keptKey(scope, change.externalObjectId);
    const stored = this.rows.get(key);
    if (!replacesKeptChange(stored?.change, change)) return;
    this.rows.set(key, row(stored));
  }

  /** Drops the kept changes done at these revisions; one kept for a newer revision stays. */
  release(scope: ObjectScope, done: readonly KeptUpTo[]): void {
    for (const revision of done) {
      const key = keptKey(scope, revision.externalObjectId);
      const stored = this.rows.get(key);
      if (stored && isKeptChangeDone(stored.change, revision)) this.rows.delete(key);
    }
  }
}
