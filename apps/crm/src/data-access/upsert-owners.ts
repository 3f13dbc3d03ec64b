import { CrmError } from '../domain/crm-error';
import type { CrmType } from '../domain/object-types';
import { claimState, isLeftBehind } from '../domain/unique-claim-state';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';
import type { UniqueClaims } from './unique-claims';
import { ownerSeen, uniqueValueKey } from './unique-values';

/** Which object each value of an upsert's idProperty writes. */
export interface UpsertOwners {
  /** The owner of each value, keyed by the value as asked. */
  owners: Map<string, number>;
  /** The owners this call claimed: objects to create. */
  fresh: Set<number>;
  /** The claims this call made (its fresh owners'), for it to drop if it fails before it writes them. */
  made: Pick<UniqueValueDoc, '_id' | 'objectId'>[];
  /** The owners of the values claimed before, as read by _id before the write (without history). */
  read: Map<number, CrmObjectDoc>;
}

/**
 * Finds (or makes) the object each upsert value writes. A value claimed by a live object that holds
 * it, or by a write still in flight (claimState), keeps its owner. A value never claimed is claimed
 * for a new id; so is one whose claim a dead writer left behind (its owner never written, archived,
 * or holding another value): the upsert makes a new object rather than write over that owner.
 * Where another writer claims a value first, its owner wins.
 */
export async function upsertOwners(
  claims: UniqueClaims,
  allocate: (count: number) => Promise<number[]>,
  { portalId, objectType, property }: { portalId: number; objectType: CrmType; property: string },
  values: readonly string[],
): Promise<UpsertOwners> {
  const claimed = await claims.claimsOf(portalId, objectType, property, values);
  const read = await claims.takeover.ownerDocs(claimed.values());
  const owners = new Map<string, number>();
  const leftBehind = new Map<string, UniqueValueDoc>();
  const judgedAt = new Date();
  for (const [value, claim] of claimed) {
    if (isLeftBehind(claimState(claim, ownerSeen(claim, read.get(claim.objectId)), judgedAt))) leftBehind.set(claim._id, claim);
    else owners.set(value, claim.objectId);
  }
  const unclaimed = [...new Set(values.filter((value) => !claimed.has(value)))];
  if (unclaimed.length + leftBehind.size === 0) return { owners, fresh: new Set(), made: [], read };

  const newIds = await allocate(unclaimed.length + leftBehind.size);
  const claimedAt = new Date();
  const moves = [...leftBehind.values()].map((claim, i) => ({ claim, objectId: newIds[unclaimed.length + i] }));
  const moved = await claims.takeover.reassign(moves, claimedAt);
  // New values, and values whose left-behind claim was released before it could be taken over, are
  // claimed for their new ids; where another writer claims one first (or took over its claim, or
  // two values are one e-mail), its owner wins.
  const wanted = [
    ...unclaimed.map((value, i) => ({ value, objectId: newIds[i] })),
    ...moves.filter(({ claim }) => !moved.has(claim._id)).map(({ claim, objectId }) => ({ value: claim.value, objectId })),
  ];
  const taken = await claims.take(portalId, objectType, property, wanted, claimedAt);
  const made = [
    ...moves.filter(({ claim }) => moved.has(claim._id)).map(({ claim, objectId }) => ({ _id: claim._id, objectId })),
    ...wanted
      .filter(({ value, objectId }) => taken.get(value) === objectId)
      .map(({ value, objectId }) => ({ _id: uniqueValueKey(portalId, objectType, property, value), objectId })),
  ];
  const newOwner = new Map(made.map(({ _id, objectId }) => [_id, objectId]));
  const unowned: string[] = [];
  for (const value of values) {
    if (owners.has(value)) continue;
    const claim = claimed.get(value);
    const owner = claim ? (newOwner.get(claim._id) ?? taken.get(claim.value)) : taken.get(value);
    if (owner === undefined) unowned.push(value);
    else owners.set(value, owner);
  }
  if (unowned.length > 0) {
    // Claimed and released by others between this call's claim and its read: nothing of it is kept.
    await claims.takeover.drop(made);
    throw CrmError.conflict(`${property} "${unowned[0].slice(0, 100)}" was claimed and released by other requests while this one wrote it; retry`);
  }
  return { owners, fresh: new Set(made.map(({ objectId }) => objectId)), made, read };
}
