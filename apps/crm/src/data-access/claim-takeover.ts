import type { mongo } from 'mongoose';
import { findIn } from '@ecomm-sync/data-access';
import type { CrmType } from '../domain/object-types';
import { claimState, isLeftBehind } from '../domain/unique-claim-state';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';
import { claimConflict, ownerSeen } from './unique-values';

/**
 * What a writer does with claims it found taken: reads their owners, takes over those a dead writer
 * left behind (claimState) by a compare-and-set on the claim as read, and refuses the rest.
 */
export class ClaimTakeover {
  constructor(
    private readonly claims: mongo.Collection<UniqueValueDoc>,
    private readonly objects: mongo.Collection<CrmObjectDoc>,
  ) {}

  /** The owners of these claims, by id, read without their history. */
  async ownerDocs(claims: Iterable<UniqueValueDoc>): Promise<Map<number, CrmObjectDoc>> {
    const ids = [...new Set([...claims].map((claim) => claim.objectId))];
    return new Map((await findIn<CrmObjectDoc>(this.objects, '_id', ids, { projection: { history: 0 } })).map((doc) => [doc._id, doc]));
  }

  /**
   * Gives claims new owners where each is still as it was read (the same owner, made at the same
   * time): of two writers that found one claim left behind, one takes it. The _ids moved.
   */
  async reassign(moves: readonly { claim: UniqueValueDoc; objectId: number }[], claimedAt: Date): Promise<Set<string>> {
    const results = await Promise.all(
      moves.map(({ claim, objectId }) =>
        this.claims.updateOne({ _id: claim._id, objectId: claim.objectId, claimedAt: claim.claimedAt ?? null }, { $set: { objectId, claimedAt } }),
      ),
    );
    return new Set(moves.filter((_, i) => results[i].modifiedCount === 1).map(({ claim }) => claim._id));
  }

  /**
   * After some of `docs` (one call's claims, made at `claimedAt`) were found claimed: those claimed
   * by the same object (a retried write) are its own, renewed so nobody takes them over while it
   * writes; those left behind by a dead writer are taken over; any other owner refuses the call,
   * and this call's claims are deleted.
   */
  async settle(objectType: CrmType, docs: readonly UniqueValueDoc[], claimedAt: Date): Promise<void> {
    const found = new Map((await this.claimsById(docs)).map((doc) => [doc._id, doc]));
    const ours = docs.filter((doc) => found.get(doc._id)?.objectId === doc.objectId);
    const theirs = docs
      .filter((doc) => found.has(doc._id) && found.get(doc._id)!.objectId !== doc.objectId)
      .map((doc) => ({ doc, claim: found.get(doc._id)! }));
    const owners = await this.ownerDocs(theirs.map(({ claim }) => claim));
    const leftBehind = theirs.filter(({ claim }) => isLeftBehind(claimState(claim, ownerSeen(claim, owners.get(claim.objectId)), claimedAt)));
    const refusal = (doc: UniqueValueDoc, owner: number | null) => claimConflict(objectType, doc.property, doc.value, owner);
    const blocked = docs.find((doc) => !ours.includes(doc) && !leftBehind.some((taken) => taken.doc === doc));
    if (blocked) {
      await this.drop(ours);
      throw refusal(blocked, found.get(blocked._id)?.objectId ?? null);
    }
    const moved = await this.reassign(
      leftBehind.map(({ doc, claim }) => ({ claim, objectId: doc.objectId })),
      claimedAt,
    );
    const renewed =
      ours.length === 0
        ? 0
        : (await this.claims.updateMany({ $or: ours.map(({ _id, objectId }) => ({ _id, objectId })) }, { $set: { claimedAt } })).matchedCount;
    // Another writer took over a claim first (one left behind, or one of ours it saw as left behind).
    let overtaken = leftBehind.find(({ doc }) => !moved.has(doc._id))?.doc;
    if (!overtaken && renewed < ours.length) {
      const now = new Map((await this.claimsById(ours)).map((claim) => [claim._id, claim.objectId]));
      overtaken = ours.find((doc) => now.get(doc._id) !== doc.objectId) ?? ours[0];
    }
    if (!overtaken) return;
    await this.drop([...ours, ...docs.filter((doc) => moved.has(doc._id))]);
    throw refusal(overtaken, (await this.claims.findOne({ _id: overtaken._id }))?.objectId ?? null);
  }

  /** Deletes claims, each only while the object it names still owns it. */
  async drop(claims: readonly Pick<UniqueValueDoc, '_id' | 'objectId'>[]): Promise<void> {
    if (claims.length > 0) await this.claims.deleteMany({ $or: claims.map(({ _id, objectId }) => ({ _id, objectId })) });
  }

  /** The claims of these docs' values, as stored now. */
  private claimsById(docs: readonly UniqueValueDoc[]): Promise<UniqueValueDoc[]> {
    return findIn<UniqueValueDoc>(
      this.claims,
      '_id',
      docs.map((doc) => doc._id),
    );
  }
}
