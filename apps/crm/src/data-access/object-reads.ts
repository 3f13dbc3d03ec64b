import type { mongo } from 'mongoose';
import { driverCollection, findIn } from '@ecomm-sync/data-access';
import { ownValue } from '@ecomm-sync/domain';
import { keyOf } from '@ecomm-sync/util';
import { CrmError } from '../domain/crm-error';
import type { CrmType } from '../domain/object-types';
import type { ContactEmailDoc, CrmModels, CrmObjectDoc, UniqueValueDoc } from './crm-models';
import type { PropertyStore } from './property-store';

export type Properties = Record<string, string | null>;

export interface StoredObject {
  id: number;
  properties: Properties;
  associations: Record<string, number[]>;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type SearchFilter = { propertyName: string; operator: 'EQ' | 'IN'; values: string[] };

/** The _id of a unique property's value: the claim that gives the value one owner. */
export const uniqueValueKey = (portalId: number, objectType: CrmType, property: string, value: string) => keyOf(portalId, objectType, property, value);

/** The _id of the contacts of a portal with one (lower-cased) e-mail. */
export const contactEmailKey = (portalId: number, emailKey: string) => keyOf(portalId, emailKey);

/** Whether an object passes every filter (values compare as stored; contact e-mails without case). */
function matchesFilters(objectType: CrmType, object: StoredObject, filters: SearchFilter[]): boolean {
  return filters.every(({ propertyName, values }) => {
    const value = ownValue(object.properties, propertyName);
    if (value === null || value === undefined) return false;
    if (objectType === 'contacts' && propertyName === 'email') return values.some((wanted) => wanted.toLowerCase() === value.toLowerCase());
    return values.includes(value);
  });
}

/** Objects of every type: reads by id and by a unique property, and search. */
export class ObjectReads {
  /** The driver's collections, typed with their own _id (the objects' and claims' keys). */
  protected readonly objects: mongo.Collection<CrmObjectDoc>;
  protected readonly uniqueValues: mongo.Collection<UniqueValueDoc>;
  protected readonly contactEmails: mongo.Collection<ContactEmailDoc>;

  constructor(
    models: CrmModels,
    protected readonly propertyStore: PropertyStore,
  ) {
    this.objects = driverCollection<CrmObjectDoc>(models.objects);
    this.uniqueValues = driverCollection<UniqueValueDoc>(models.uniqueValues);
    this.contactEmails = driverCollection<ContactEmailDoc>(models.contactEmails);
  }

  /**
   * Live objects of the portal and type with these ids, in the order asked; unknown, archived and
   * other portals' or types' ids are left out. Read by _id alone, then checked here.
   */
  async read(portalId: number, objectType: CrmType, ids: number[]): Promise<StoredObject[]> {
    if (ids.length === 0) return [];
    const docs = await findIn(this.objects, '_id', ids);
    const byId = new Map(
      docs
        .filter((doc) => doc.portalId === portalId && doc.objectType === objectType && !doc.archived)
        .map((doc) => [doc.id as number, doc as unknown as StoredObject]),
    );
    return [...new Set(ids)].map((id) => byId.get(id)).filter((doc): doc is StoredObject => !!doc);
  }

  /**
   * Live objects by the value of a property with unique values (a batch read with `idProperty`),
   * keyed by the value as asked. A contact's `email` is matched without case, through
   * crm_contact_emails (the lowest id first when several contacts hold one e-mail), as the hosted
   * CRM reads contacts by e-mail; other properties through their unique-value claims.
   */
  async readByProperty(portalId: number, objectType: CrmType, property: string, values: string[]): Promise<Map<string, StoredObject>> {
    const found = new Map<string, StoredObject>();
    if (objectType === 'contacts' && property === 'email') {
      const { results } = await this.search(portalId, objectType, [{ propertyName: 'email', operator: 'IN', values }], Number.MAX_SAFE_INTEGER, 0);
      for (const value of values) {
        const match = results.find((object) => ownValue(object.properties, 'email')?.toLowerCase() === value.toLowerCase());
        if (match) found.set(value, match);
      }
      return found;
    }
    if (!(await this.propertyStore.definitions(portalId, objectType)).get(property)?.hasUniqueValue) {
      throw CrmError.invalidInput(`idProperty "${property}" is not a property with unique values on ${objectType}`);
    }
    const owners = await this.claimedObjectIds(portalId, objectType, property, values);
    const objects = new Map((await this.read(portalId, objectType, [...owners.values()])).map((object) => [object.id, object]));
    for (const value of values) {
      const object = objects.get(owners.get(value) ?? 0);
      if (object && ownValue(object.properties, property) === value) found.set(value, object);
    }
    return found;
  }

  async search(
    portalId: number,
    objectType: CrmType,
    filters: SearchFilter[],
    limit: number,
    after: number,
  ): Promise<{ total: number; results: StoredObject[] }> {
    const byEmail = objectType === 'contacts' ? filters.find((filter) => filter.propertyName === 'email') : undefined;
    if (byEmail) {
      // The contacts noted with these e-mails, checked against what they hold now.
      const entries = await findIn(
        this.contactEmails,
        '_id',
        byEmail.values.map((value) => contactEmailKey(portalId, value.toLowerCase())),
      );
      const candidates = await this.read(
        portalId,
        objectType,
        entries.flatMap((entry) => entry.ids),
      );
      const matching = candidates.filter((object) => matchesFilters(objectType, object, filters)).sort((a, b) => a.id - b.id);
      return { total: matching.length, results: matching.slice(after, after + limit) };
    }
    const query: Record<string, unknown> = { portalId, objectType, archived: false };
    for (const filter of filters) query[`properties.${filter.propertyName}`] = { $in: filter.values };
    const docs = await this.objects
      .find(query)
      .sort({ id: 1 })
      .skip(after)
      .limit(limit + 1)
      .toArray();
    return { total: after + docs.length, results: docs.slice(0, limit) as unknown as StoredObject[] };
  }

  /** The owners of unique values: the object each value's claim names. */
  protected async claimedObjectIds(portalId: number, objectType: CrmType, property: string, values: string[]): Promise<Map<string, number>> {
    const docs = await findIn(
      this.uniqueValues,
      '_id',
      values.map((value) => uniqueValueKey(portalId, objectType, property, value)),
    );
    return new Map(docs.map((doc) => [doc.value as string, doc.objectId as number]));
  }
}
