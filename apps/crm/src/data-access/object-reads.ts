import type { mongo } from 'mongoose';
import { driverCollection, findIn } from '@ecomm-sync/data-access';
import { ownValue } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import type { CrmType, PropertyDefinition } from '../domain/object-types';
import type { PropertyHistory } from '../domain/property-history';
import type { CrmModels, CrmObjectDoc, UniqueValueDoc } from './crm-models';
import type { PropertyStore } from './property-store';
import { matchesSearch, searchOrder, type SearchFilter, type SearchSort } from '../domain/crm-search';
import { UniqueClaims } from './unique-claims';
import { uniqueProperties } from './unique-values';
import { storedValue } from '../domain/validate-values';

export type Properties = Record<string, string | null>;

export interface StoredObject {
  id: number;
  properties: Properties;
  /** The ids associated, by type: only where the objects API was asked for them (AssociationStore.idsOf). */
  associations?: Record<string, number[]>;
  /** Read only when asked for (`withHistory`): the write path never needs it. */
  history?: PropertyHistory;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type SearchGroup = { filters: SearchFilter[] };

/** A search's filter values as the properties keep them: a date's ISO text as its epoch milliseconds, as stored. */
function keptValues(filterGroups: SearchGroup[], definitions: ReadonlyMap<string, PropertyDefinition>): SearchGroup[] {
  const kept = (name: string, value: string | undefined) => (value === undefined ? undefined : storedValue(definitions.get(name), value));
  return filterGroups.map((group) => ({
    filters: group.filters.map((filter) => ({
      ...filter,
      value: kept(filter.propertyName, filter.value),
      highValue: kept(filter.propertyName, filter.highValue),
      values: filter.values?.map((value) => kept(filter.propertyName, value)!),
    })),
  }));
}

/** Reads leave each object's property history out unless asked: it is most of a busy object's document. */
const projection = (withHistory: boolean | undefined) => (withHistory ? {} : { projection: { history: 0 } });

/** The e-mails a filter group asks for with EQ or IN on `email`, or null when it asks for none. */
function emailsAskedBy(group: SearchGroup): string[] | null {
  const filter = group.filters.find((one) => one.propertyName === 'email' && (one.operator === 'EQ' || one.operator === 'IN'));
  if (!filter) return null;
  return filter.operator === 'EQ' ? [filter.value ?? ''] : (filter.values ?? []);
}

/** Whether a value is the one asked for (contact e-mails without case). */
function holds(objectType: CrmType, object: StoredObject, propertyName: string, wanted: string): boolean {
  const value = ownValue(object.properties, propertyName);
  if (value === null || value === undefined) return false;
  return objectType === 'contacts' && propertyName === 'email' ? wanted.toLowerCase() === value.toLowerCase() : wanted === value;
}

/** Whether a document read by _id is a live object of the portal and type (ids are unique across them). */
export const isLive = (doc: { portalId?: unknown; objectType?: unknown; archived?: unknown }, portalId: number, objectType: CrmType) =>
  doc.portalId === portalId && doc.objectType === objectType && !doc.archived;

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
    this.claims = new UniqueClaims(driverCollection<UniqueValueDoc>(models.uniqueValues), this.objects);
  }

  /**
   * Live objects of the portal and type with these ids, in the order asked; unknown, archived and
   * other portals' or types' ids are left out. Read by _id alone, then checked here.
   */
  async read(portalId: number, objectType: CrmType, ids: number[], { withHistory }: { withHistory?: boolean } = {}): Promise<StoredObject[]> {
    if (ids.length === 0) return [];
    const docs = await findIn(this.objects, '_id', ids, projection(withHistory));
    const byId = new Map(docs.filter((doc) => isLive(doc, portalId, objectType)).map((doc) => [doc.id as number, doc as unknown as StoredObject]));
    return [...new Set(ids)].map((id) => byId.get(id)).filter((doc): doc is StoredObject => !!doc);
  }

  /**
   * Which of these ids are live objects of the portal and type (the same check as `read`), reading
   * only what the check needs: an association's existence check needs none of the properties.
   */
  async liveIds(portalId: number, objectType: CrmType, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const docs = await findIn(this.objects, '_id', ids, { projection: { portalId: 1, objectType: 1, archived: 1 } });
    return new Set(docs.filter((doc) => isLive(doc, portalId, objectType)).map((doc) => doc._id as number));
  }

  /** One page of the live objects of a type, by id, after the id `after` (the basic API's list). */
  async page(portalId: number, objectType: CrmType, limit: number, after: number, { withHistory }: { withHistory?: boolean } = {}): Promise<StoredObject[]> {
    const docs = await this.objects
      .find({ portalId, objectType, archived: false, id: { $gt: after } }, projection(withHistory))
      .sort({ id: 1 })
      .limit(limit)
      .toArray();
    return docs as unknown as StoredObject[];
  }

  /**
   * Live objects by the value of a property with unique values (a batch read with `idProperty`),
   * keyed by the value as asked: through the values' claims (a contact's `email` without case, as
   * the hosted CRM reads contacts by e-mail).
   */
  async readByProperty(
    portalId: number,
    objectType: CrmType,
    property: string,
    values: string[],
    options: { withHistory?: boolean } = {},
  ): Promise<Map<string, StoredObject>> {
    const definitions = await this.propertyStore.definitions(portalId, objectType);
    if (!uniqueProperties(objectType, definitions).includes(property)) {
      throw CrmError.invalidInput(`idProperty "${property}" is not a property with unique values on ${objectType}`);
    }
    // Each value as the property keeps it (an ISO date as its epoch milliseconds), answered under the value asked.
    const kept = new Map(values.map((value) => [value, storedValue(definitions.get(property), value)]));
    const held = await this.ownersHolding(portalId, objectType, property, [...new Set(kept.values())], options);
    return new Map(values.flatMap((value) => (held.has(kept.get(value)!) ? [[value, held.get(kept.get(value)!)!] as const] : [])));
  }

  /** The live owners of unique values that still hold them, keyed by the value as asked. */
  private async ownersHolding(
    portalId: number,
    objectType: CrmType,
    property: string,
    values: string[],
    options: { withHistory?: boolean } = {},
  ): Promise<Map<string, StoredObject>> {
    const owners = await this.claims.owners(portalId, objectType, property, values);
    const objects = new Map((await this.read(portalId, objectType, [...owners.values()], options)).map((object) => [object.id, object]));
    const found = new Map<string, StoredObject>();
    for (const value of values) {
      const object = objects.get(owners.get(value) ?? 0);
      if (object && holds(objectType, object, property, value)) found.set(value, object);
    }
    return found;
  }

  /**
   * Live objects matching the filter groups (any group; every filter of it), in the sort's order,
   * one page. Contacts asked for by e-mail in every group are found through the e-mails' claims;
   * other searches read the portal's objects of the type and filter them here (the built-in CRM
   * serves trials and tests, not millions of objects).
   */
  async search(
    portalId: number,
    objectType: CrmType,
    { filterGroups, sorts }: { filterGroups: SearchGroup[]; sorts: SearchSort[] },
    limit: number,
    after: number,
  ): Promise<{ total: number; results: StoredObject[] }> {
    filterGroups = keptValues(filterGroups, await this.propertyStore.definitions(portalId, objectType));
    const emails = objectType === 'contacts' && filterGroups.length > 0 ? filterGroups.map(emailsAskedBy) : [];
    const candidates =
      emails.length > 0 && emails.every((asked) => asked !== null)
        ? [...(await this.ownersHolding(portalId, objectType, 'email', emails.flat() as string[])).values()]
        : ((await this.objects.find({ portalId, objectType, archived: false }, projection(false)).toArray()) as unknown as StoredObject[]);
    const unique = [...new Map(candidates.map((object) => [object.id, object])).values()];
    const matching = unique.filter((object) => matchesSearch(object.properties, filterGroups)).sort(searchOrder(sorts));
    return { total: matching.length, results: matching.slice(after, after + limit) };
  }
}
