import type { mongo } from 'mongoose';
import { findIn, onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import type { CrmType, PropertyDefinition } from '../domain/object-types';
import type { UniqueValueDoc } from './crm-models';

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
 * Existing ID: …").
 */
export class UniqueClaims {
  constructor(private readonly claims: mongo.Collection<UniqueValueDoc>) {}

  /** The owner of each value, keyed by the value as asked (e-mails found without case). */
  async owners(portalId: number, objectType: CrmType, property: string, values: readonly string[]): Promise<Map<string, number>> {
    const docs = await findIn(
      this.claims,
      '_id',
      values.map((value) => uniqueValueKey(portalId, objectType, property, value)),
    );
    const byValue = new Map(docs.map((doc) => [doc.value, doc.objectId]));
    const owners = new Map<string, number>();
    for (const value of values) {
      const owner = byValue.get(claimedValue(objectType, property, value));
      if (owner !== undefined) owners.set(value, owner);
    }
    return owners;
  }

  /**
   * Claims values of the idProperty of an upsert for new objects; where another writer claimed one
   * first (or two values are one e-mail), that owner wins. The owner of each value, as asked.
   */
  async take(portalId: number, objectType: CrmType, property: string, wanted: readonly { value: string; objectId: number }[]): Promise<Map<string, number>> {
    const docs = new Map<string, UniqueValueDoc>();
    for (const { value, objectId } of wanted) {
      const _id = uniqueValueKey(portalId, objectType, property, value);
      if (!docs.has(_id)) docs.set(_id, { _id, portalId, objectType, property, value: claimedValue(objectType, property, value), objectId });
    }
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
   * Claims for an object new values of `properties` (all but `except`, which the caller claimed);
   * another owner refuses the whole call and leaves no claim of it behind. Resolves with the
   * release of the values the objects gave up, to call once they are written.
   */
  async claim(portalId: number, objectType: CrmType, properties: readonly string[], writes: readonly ClaimedWrite[]): Promise<() => Promise<void>> {
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
        wanted.set(_id, { _id, portalId, objectType, property, value: claimedValue(objectType, property, value), objectId: id });
      }
    }
    const docs = [...wanted.values()];
    if (docs.length > 0) {
      try {
        await this.claims.insertMany(docs, { ordered: false });
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        // Some values were claimed before: by the same object (a retried write) they are its own.
        const owners = new Map((await findIn(this.claims, '_id', [...wanted.keys()])).map((doc) => [doc._id, doc.objectId]));
        const lost = docs.find((doc) => owners.get(doc._id) !== doc.objectId);
        if (lost) {
          const ours = docs.filter((doc) => owners.get(doc._id) === doc.objectId).map(({ _id, objectId }) => ({ _id, objectId }));
          if (ours.length > 0) await this.claims.deleteMany({ $or: ours });
          throw conflict(objectType, lost.property, lost.value, owners.get(lost._id) ?? null);
        }
      }
    }
    return async () => {
      if (released.length > 0) await this.claims.deleteMany({ $or: released });
    };
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
