import type { mongo } from 'mongoose';
import { findIn, onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { keyOf, ownValue } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import type { CrmType, PropertyDefinition } from '../domain/object-types';
import { claimState, isLeftBehind, type OwnerSeen } from '../domain/unique-claim-state';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';

type Properties = Record<string, string | null>;

/** A contact's e-mail is unique without case, as in the hosted CRM; other unique values as written. */
const isEmail = (objectType: CrmType, property: string) => objectType === 'contacts' && property === 'email';
const claimedValue = (objectType: CrmType, property: string, value: string) => (isEmail(objectType, property) ? value.toLowerCase() : value);

/** The _id of a unique property's value: the claim that gives the value one owner. */
export const uniqueValueKey = (portalId: number, objectType: CrmType, property: string, value: string) =>
  keyOf(portalId, objectType, property, claimedValue(objectType, property, value));

/** The properties whose values one object at most may hold: those defined with `hasUniqueValue`, and a contact's e-mail. */
export function uniqueProperties(objectType: CrmType, definitions: ReadonlyMap<string, PropertyDefinition>): string[] {
  const names = [...definitions.values()].filter((definition) => definition.hasUniqueValue).map((definition) => definition.name);
  return objectType === 'contacts' && !names.includes('email') ? [...names, 'email'] : names;
}

/** A claim's owner as read by _id (without its history), or undefined where no object has the id. */
export type OwnerDoc = Pick<CrmObjectDoc, 'portalId' | 'objectType' | 'archived' | 'properties'>;

/** What the claim's owner, as read, makes of the claim: whether it is live in the claim's portal and type, and holds the value. */
export function ownerSeen(claim: UniqueValueDoc, owner: OwnerDoc | undefined): OwnerSeen | undefined {
  if (!owner) return undefined;
  const value = ownValue(owner.properties ?? {}, claim.property);
  return {
    live: owner.portalId === claim.portalId && owner.objectType === claim.objectType && !owner.archived,
    holds: typeof value === 'string' && claimedValue(claim.objectType as CrmType, claim.property, value) === claim.value,
  };
}

/** One object's write as claims see it: what it held before (nothing for a new object) and what it will hold. */
export interface ClaimedWrite {
  id: number;
  before?: Properties;
  after: Properties;
}

/**
 * Who owns each value of a unique property (crm_unique_values): claimed before the object is
 * written, released after it no longer holds the value or is archived. A value another object owns refuses the
 * write with a conflict, as the hosted CRM does (a contact's e-mail: "Contact already exists.
 * Existing ID: …"). A claim a writer left behind when it died between its steps (claimState) is
 * taken over by the next writer of the value.
 */
export class UniqueClaims {
  constructor(
    private readonly claims: mongo.Collection<UniqueValueDoc>,
    private readonly objects: mongo.Collection<CrmObjectDoc>,
  ) {}

  /** The claim of each value, keyed by the value as asked (e-mails found without case). */
  async claimsOf(portalId: number, objectType: CrmType, property: string, values: readonly string[]): Promise<Map<string, UniqueValueDoc>> {
    const docs = await findIn<UniqueValueDoc>(
      this.claims,
      '_id',
      values.map((value) => uniqueValueKey(portalId, objectType, property, value)),
    );
    const byValue = new Map(docs.map((doc) => [doc.value, doc]));
    const claims = new Map<string, UniqueValueDoc>();
    for (const value of values) {
      const claim = byValue.get(claimedValue(objectType, property, value));
      if (claim) claims.set(value, claim);
    }
    return claims;
  }

  /** The owner of each value, keyed by the value as asked (e-mails found without case). */
  async owners(portalId: number, objectType: CrmType, property: string, values: readonly string[]): Promise<Map<string, number>> {
    const claims = await this.claimsOf(portalId, objectType, property, values);
    return new Map([...claims].map(([value, claim]) => [value, claim.objectId]));
  }

  /** The owners of these claims, by id, read without their history. */
  async ownerDocs(claims: Iterable<UniqueValueDoc>): Promise<Map<number, CrmObjectDoc>> {
    const ids = [...new Set([...claims].map((claim) => claim.objectId))];
    return new Map((await findIn<CrmObjectDoc>(this.objects, '_id', ids, { projection: { history: 0 } })).map((doc) => [doc._id, doc]));
  }

  /**
   * Claims values of the idProperty of an upsert for new objects; where another writer claimed one
   * first (or two values are one e-mail), that owner wins. The owner of each value, as asked.
   */
  async take(
    portalId: number,
    objectType: CrmType,
    property: string,
    wanted: readonly { value: string; objectId: number }[],
    claimedAt: Date,
  ): Promise<Map<string, number>> {
    const docs = new Map<string, UniqueValueDoc>();
    for (const { value, objectId } of wanted) {
      const _id = uniqueValueKey(portalId, objectType, property, value);
      if (!docs.has(_id)) docs.set(_id, { _id, portalId, objectType, property, value: claimedValue(objectType, property, value), objectId, claimedAt });
    }
    if (docs.size === 0) return new Map();
    const contested = await this.claims.insertMany([...docs.values()], { ordered: false }).then(
      () => false,
      (error) => (onlyDuplicateKeyErrors(error) ? true : Promise.reject(error)),
    );
    if (contested)
      return this.owners(
        portalId,
        objectType,
        property,
        wanted.map(({ value }) => value),
      );
    return new Map(wanted.map(({ value }) => [value, docs.get(uniqueValueKey(portalId, objectType, property, value))!.objectId]));
  }

  /**
   * Gives claims new owners where each is still as it was read (the same owner, made at the same
   * time): two writers that found one claim left behind cannot both take it. The _ids moved.
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
   * Claims for an object new values of `properties` (all but `except`, which the caller claimed);
   * another owner refuses the whole call and leaves no claim of it behind, unless its claim was
   * left behind (taken over). Resolves with the release of the values the objects gave up, to call
   * once they are written.
   */
  async claim(portalId: number, objectType: CrmType, properties: readonly string[], writes: readonly ClaimedWrite[]): Promise<() => Promise<void>> {
    const claimedAt = new Date();
    const wanted = new Map<string, UniqueValueDoc>();
    const released: { _id: string; objectId: number }[] = [];
    for (const { id, before, after } of writes) {
      for (const property of properties) {
        const value = after[property];
        if (value === undefined) continue;
        const previous = before?.[property];
        const same = !!value && !!previous && claimedValue(objectType, property, value) === claimedValue(objectType, property, previous);
        if (same) continue;
        if (previous) released.push({ _id: uniqueValueKey(portalId, objectType, property, previous), objectId: id });
        if (!value) continue;
        const _id = uniqueValueKey(portalId, objectType, property, value);
        const taken = wanted.get(_id);
        if (taken && taken.objectId !== id) throw conflict(objectType, property, value, null);
        wanted.set(_id, { _id, portalId, objectType, property, value: claimedValue(objectType, property, value), objectId: id, claimedAt });
      }
    }
    const docs = [...wanted.values()];
    if (docs.length > 0) {
      try {
        await this.claims.insertMany(docs, { ordered: false });
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        await this.settle(objectType, docs, claimedAt);
      }
    }
    return async () => {
      if (released.length > 0) await this.claims.deleteMany({ $or: released });
    };
  }

  /**
   * After some of `docs` were claimed before: those claimed by the same object (a retried write)
   * are its own, renewed so nobody takes them over while it writes; those left behind by a dead
   * writer are taken over; any other owner refuses the call, and this call's claims are deleted.
   */
  private async settle(objectType: CrmType, docs: readonly UniqueValueDoc[], claimedAt: Date): Promise<void> {
    const found = new Map((await this.claimsById(docs)).map((doc) => [doc._id, doc]));
    const ours = docs.filter((doc) => found.get(doc._id)?.objectId === doc.objectId);
    const theirs = docs
      .filter((doc) => found.has(doc._id) && found.get(doc._id)!.objectId !== doc.objectId)
      .map((doc) => ({ doc, claim: found.get(doc._id)! }));
    const owners = await this.ownerDocs(theirs.map(({ claim }) => claim));
    const leftBehind = theirs.filter(({ claim }) => isLeftBehind(claimState(claim, ownerSeen(claim, owners.get(claim.objectId)), claimedAt)));
    const refusal = (doc: UniqueValueDoc, owner: number | null) => conflict(objectType, doc.property, doc.value, owner);
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
      const owners = new Map((await this.claimsById(ours)).map((claim) => [claim._id, claim.objectId]));
      overtaken = ours.find((doc) => owners.get(doc._id) !== doc.objectId) ?? ours[0];
    }
    if (!overtaken) return;
    await this.drop([...ours, ...docs.filter((doc) => moved.has(doc._id))]);
    throw refusal(overtaken, (await this.claims.findOne({ _id: overtaken._id }))?.objectId ?? null);
  }

  /** The claims of these docs' values, as stored now. */
  private claimsById(docs: readonly UniqueValueDoc[]): Promise<UniqueValueDoc[]> {
    return findIn<UniqueValueDoc>(
      this.claims,
      '_id',
      docs.map((doc) => doc._id),
    );
  }

  /** Deletes this call's claims (each only while the object named still owns it). */
  private async drop(claims: readonly UniqueValueDoc[]): Promise<void> {
    if (claims.length > 0) await this.claims.deleteMany({ $or: claims.map(({ _id, objectId }) => ({ _id, objectId })) });
  }

  /** Frees the unique values archived objects held: as in the hosted CRM, a new object may take them. */
  async release(
    portalId: number,
    objectType: CrmType,
    properties: readonly string[],
    objects: readonly { id: number; properties: Properties }[],
  ): Promise<void> {
    const held = objects.flatMap(({ id, properties: values }) =>
      properties
        .filter((property) => values[property])
        .map((property) => ({ _id: uniqueValueKey(portalId, objectType, property, values[property]!), objectId: id })),
    );
    if (held.length > 0) await this.claims.deleteMany({ $or: held });
  }
}

function conflict(objectType: CrmType, property: string, value: string, owner: number | null): CrmError {
  if (isEmail(objectType, property)) return CrmError.conflict(`Contact already exists. Existing ID: ${owner ?? 'another input of this batch'}`);
  return CrmError.conflict(
    `${property} "${value.slice(0, 100)}" is already taken by ${owner === null ? 'another input of this batch' : `object ${owner}`}; use batch/upsert to update by it`,
  );
}
