import type { mongo } from 'mongoose';
import { driverCollection, findIn } from '@ecomm-sync/data-access';
import { ownValue } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import type { CrmType } from '../domain/object-types';
import type { CrmModels, CrmObjectDoc, UniqueValueDoc } from './crm-models';
import type { PropertyStore } from './property-store';
import { UniqueClaims, uniqueProperties } from './unique-claims';

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

/** Whether a value is the one asked for (contact e-mails without case). */
function holds(objectType: CrmType, object: StoredObject, propertyName: string, wanted: string): boolean {
  const value = ownValue(object.properties, propertyName);
  if (value === null || value === undefined) return false;
  return objectType === 'contacts' && propertyName === 'email' ? wanted.toLowerCase() === value.toLowerCase() : wanted === value;
}

/** Whether an object passes every filter (values compare as stored; contact e-mails without case). */
const matchesFilters = (objectType: CrmType, object: StoredObject, filters: SearchFilter[]): boolean =>
  filters.every(({ propertyName, values }) => values.some((wanted) => holds(objectType, object, propertyName, wanted)));

/** Objects of every type: reads by id and by a unique property, and search. */
export class ObjectReads {
  /** The driver's collections, typed with their own _id (the objects' and claims' keys). */
  protected readonly objects: mongo.Collection<CrmObjectDoc>;
  protected readonly claims: UniqueClaims;

  constructor(
    models: CrmModels,
    protected readonly propertyStore: PropertyStore,
  ) {
    this.objects = driverCollection<CrmObjectDoc>(models.objects);
    this.claims = new UniqueClaims(driverCollection<UniqueValueDoc>(models.uniqueValues));
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
   * keyed by the value as asked: through the values' claims (a contact's `email` without case, as
   * the hosted CRM reads contacts by e-mail).
   */
  async readByProperty(portalId: number, objectType: CrmType, property: string, values: string[]): Promise<Map<string, StoredObject>> {
    if (!uniqueProperties(objectType, await this.propertyStore.definitions(portalId, objectType)).includes(property)) {
      throw CrmError.invalidInput(`idProperty "${property}" is not a property with unique values on ${objectType}`);
    }
    return this.ownersHolding(portalId, objectType, property, values);
  }

  /** The live owners of unique values that still hold them, keyed by the value as asked. */
  private async ownersHolding(portalId: number, objectType: CrmType, property: string, values: string[]): Promise<Map<string, StoredObject>> {
    const owners = await this.claims.owners(portalId, objectType, property, values);
    const objects = new Map((await this.read(portalId, objectType, [...owners.values()])).map((object) => [object.id, object]));
    const found = new Map<string, StoredObject>();
    for (const value of values) {
      const object = objects.get(owners.get(value) ?? 0);
      if (object && holds(objectType, object, property, value)) found.set(value, object);
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
      // E-mails are claimed without case: the claims find the contacts, the other filters check them.
      const candidates = [
        ...new Map([...(await this.ownersHolding(portalId, objectType, 'email', byEmail.values)).values()].map((object) => [object.id, object])).values(),
      ];
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
}
