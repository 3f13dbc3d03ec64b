import { CrmError } from '../domain/crm-error';
import type { CrmType } from '../domain/object-types';
import { claimState, isLeftBehind } from '../domain/unique-claim-state';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';
import { ownerSeen, type UniqueClaims } from './unique-claims';

/** Which object each value of an upsert's idProperty writes. */
export interface UpsertOwners {
  /** The owner of each value, keyed by the value as asked. */
  owners: Map<string, number>;
  /** The owners this call claimed: objects to create. */
  fresh: Set<number>;
  /** The owners of the values claimed before, as read by _id before the write (without history). */
  read: Map<number, CrmObjectDoc>;
}

/**
 * Finds (or makes) the object each upsert value writes. A value claimed by a live object that holds
 * it, or by a write still in flight (claimState), keeps its owner. A value never claimed is claimed
 * for a new id; so is one whose claim a dead writer left behind (its owner never written, archived,
 * or holding another value): the upsert makes a new object rather than write over that owner. Where
 * another writer claims a value first, its owner wins.
 */
export async function upsertOwners(
  claims: UniqueClaims,
  allocate: (count: number) => Promise<number[]>,
  { portalId, objectType, property }: { portalId: number; objectType: CrmType; property: string },
  values: readonly string[],
  now: Date,
): Promise<UpsertOwners> {
  const claimed = await claims.claimsOf(portalId, objectType, property, values);
  const read = await claims.ownerDocs(claimed.values());
  const owners = new Map<string, number>();
  const leftBehind = new Map<string, UniqueValueDoc>();
  for (const [value, claim] of claimed) {
    if (isLeftBehind(claimState(claim, ownerSeen(claim, read.get(claim.objectId)), now))) leftBehind.set(claim._id, claim);
    else owners.set(value, claim.objectId);
  }
  const unclaimed = [...new Set(values.filter((value) => !claimed.has(value)))];
  const fresh = new Set<number>();
  if (unclaimed.length + leftBehind.size === 0) return { owners, fresh, read };

  const newIds = await allocate(unclaimed.length + leftBehind.size);
  const wanted = unclaimed.map((value, i) => ({ value, objectId: newIds[i] }));
  // Another writer may claim some value first (or two inputs name one e-mail): its owner wins.
  const taken = await claims.take(portalId, objectType, property, wanted, now);
  for (const { value, objectId } of wanted) {
    const owner = taken.get(value)!;
    owners.set(value, owner);
    if (owner === objectId) fresh.add(owner);
  }
  if (leftBehind.size > 0) {
    const moves = [...leftBehind.values()].map((claim, i) => ({ claim, objectId: newIds[unclaimed.length + i] }));
    const moved = await claims.reassign(moves, now);
    for (const { claim, objectId } of moves) if (moved.has(claim._id)) fresh.add(objectId);
    // A claim another writer took over first has the owner it gave it.
    const stillOpen = values.filter((value) => !owners.has(value) && !moved.has(claimed.get(value)!._id));
    const reread = await claims.owners(portalId, objectType, property, stillOpen);
    const newOwner = new Map(moves.map(({ claim, objectId }) => [claim._id, objectId]));
    for (const value of values) {
      if (owners.has(value)) continue;
      const claim = claimed.get(value)!;
      const owner = moved.has(claim._id) ? newOwner.get(claim._id) : reread.get(value);
      if (owner === undefined) throw CrmError.conflict(`${property} "${value.slice(0, 100)}" was released by another request while this one wrote it; retry`);
      owners.set(value, owner);
    }
  }
  return { owners, fresh, read };
}
