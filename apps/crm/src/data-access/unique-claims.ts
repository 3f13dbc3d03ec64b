import type { mongo } from 'mongoose';
import { findIn, onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import type { CrmType } from '../domain/object-types';
import { ClaimTakeover } from './claim-takeover';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';
import { claimConflict, claimedValue, uniqueValueKey } from './unique-values';

type Properties = Record<string, string | null>;

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
 * taken over by the next writer of the value (ClaimTakeover).
 */
export class UniqueClaims {
  readonly takeover: ClaimTakeover;

  constructor(
    private readonly claims: mongo.Collection<UniqueValueDoc>,
    objects: mongo.Collection<CrmObjectDoc>,
  ) {
    this.takeover = new ClaimTakeover(claims, objects);
  }

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

  /**
   * Claims values of the idProperty of an upsert for new objects; where another writer claimed one
   * first (or two values are one e-mail), that owner wins. The owner of each value, as asked; none
   * for a value whose claim was released before it could be read.
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
   * Claims for objects the new values of `properties` they write; another owner refuses the whole
   * call and leaves no claim of it behind, unless a dead writer left its claim behind (taken over).
   * Resolves with the release of the values the objects gave up, to call once they are written.
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
        if (taken && taken.objectId !== id) throw claimConflict(objectType, property, value, null);
        wanted.set(_id, { _id, portalId, objectType, property, value: claimedValue(objectType, property, value), objectId: id, claimedAt });
      }
    }
    const docs = [...wanted.values()];
    if (docs.length > 0) {
      try {
        await this.claims.insertMany(docs, { ordered: false });
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        await this.takeover.settle(objectType, docs, claimedAt);
      }
    }
    return () => this.takeover.drop(released);
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
    await this.takeover.drop(held);
  }
}
