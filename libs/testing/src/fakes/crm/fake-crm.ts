import type { ObjectType } from '@ecomm-sync/contracts';
import type { AssociationPair, CrmObject, CrmPort, CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { FakeCrmSetup, refused } from './fake-crm-setup';

type Properties = Record<string, string | null>;

interface StoredObject {
  id: number;
  type: ObjectType;
  properties: Properties;
  associations: Map<ObjectType, Set<number>>;
  archived: boolean;
}

/** An ISO 8601 day (`2024-05-01`) for a date, or date-time with `Z` or an offset (`…T12:30:00.000+01:00`) for a date-time, that names a real time. */
function isIsoDate(type: 'date' | 'datetime', value: string): boolean {
  const shape =
    type === 'date' ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:(?:0\d|1[0-7]):[0-5]\d|18:00))$/;
  const local = type === 'date' ? `${value}T00:00` : value.slice(0, 16);
  const millis = Date.parse(`${local}Z`);
  return shape.test(value) && !Number.isNaN(millis) && new Date(millis).toISOString().slice(0, 16) === local;
}

/** A contact's e-mail address as the built-in CRM checks it: no quoted local part, a domain ending in a top-level domain. */
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]+)$/i;

/** Why a value does not fit its property, as the built-in CRM judges it (its code, then why); null when it fits. */
function valueProblem(type: ObjectType, definition: Pick<CrmPropertyInfo, 'name' | 'type' | 'fieldType' | 'options'>, value: string | null): string | null {
  if (value === null || value === '') return null;
  if (type === 'CONTACT' && definition.name === 'email')
    return EMAIL.test(value) && value.length <= 254 && value.indexOf('@') <= 64 ? null : `INVALID_EMAIL: Email address ${value} is invalid`;
  switch (definition.type) {
    case 'number':
      // As the hosted CRM: digits, one optional leading minus, one optional point.
      return /^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? null : `INVALID_NUMBER: "${value}" is not a number`;
    case 'date':
    case 'datetime':
      // Epoch milliseconds or ISO 8601 text; a date (a day, no time) only at midnight UTC, as the hosted CRM.
      if (isIsoDate(definition.type, value)) return null;
      if (!/^-?\d{1,16}$/.test(value)) return `INVALID_LONG: ${value} was not a valid long.`;
      return definition.type === 'date' && BigInt(value) % 86_400_000n !== 0n ? `INVALID_DATE: ${value} is not at midnight UTC` : null;
    case 'bool':
      return value === 'true' || value === 'false' ? null : `INVALID_OPTION: ${value} was not one of the allowed options: [true, false]`;
    case 'enumeration': {
      // An enumeration with options takes only their values (a checkbox's: each, `;` between them).
      const allowed = new Set((definition.options ?? []).map((option) => option.value));
      const outside = allowed.size === 0 ? undefined : (definition.fieldType === 'checkbox' ? value.split(';') : [value]).find((one) => !allowed.has(one));
      return outside === undefined ? null : `INVALID_OPTION: "${outside}" was not one of the allowed options: [${[...allowed].join(', ')}]`;
    }
    default:
      return value.length <= 65_536 ? null : 'INVALID_PROPERTY_VALUE: longer than 65536 characters';
  }
}

/** A contact's e-mail is unique without case, as in the hosted CRM; other unique values as written. */
const comparable = (type: ObjectType, property: string, value: string) => (type === 'CONTACT' && property === 'email' ? value.toLowerCase() : value);

/** A write's values as the CRM keeps them: a property the port clears (null) reads back as "", as through HttpCrmClient. */
const cleared = (properties: Properties): Properties => Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, value ?? '']));

/** Associations a line item has exactly one of: a new one replaces the old (as in the built-in CRM). */
const SINGLE = new Set(['LINE_ITEM->DEAL', 'LINE_ITEM->PRODUCT']);

/**
 * An in-memory CRM of one portal (its objects here, its setup in FakeCrmSetup), held to the CrmPort contract that HttpCrmClient passes against the
 * built-in CRM. Starts empty (no properties, no pipelines) unless given `properties` and
 * `pipelines`. A rejected write writes nothing, except an update that names unknown ids, which
 * writes the others (as the built-in CRM does).
 */
export class FakeCrm extends FakeCrmSetup implements CrmPort {
  private readonly objects = new Map<number, StoredObject>();

  /** Every live object of a type, for assertions. */
  live(type: ObjectType): CrmObject[] {
    return [...this.objects.values()]
      .filter((object) => object.type === type && !object.archived)
      .map((object) => ({ id: object.id, properties: { ...object.properties } }));
  }

  /** The ids a live object is associated with, of one type, for assertions. */
  associationsOf(type: ObjectType, id: number, toType: ObjectType): number[] {
    return [...(this.liveObject(type, id)?.associations.get(toType) ?? [])];
  }

  async batchCreate(type: ObjectType, inputs: { properties: Properties }[]): Promise<CrmObject[]> {
    this.validate(type, inputs);
    this.checkUniqueValues(
      type,
      inputs.map((input) => ({ id: null, properties: input.properties })),
    );
    return inputs.map((input) => this.answer(this.insert(type, cleared(input.properties))));
  }

  async batchUpdate(type: ObjectType, inputs: { id: number; properties: Properties }[]): Promise<CrmObject[]> {
    this.validate(type, inputs);
    const missing = inputs.filter((input) => !this.liveObject(type, input.id)).map((input) => input.id);
    this.checkUniqueValues(
      type,
      inputs.filter((input) => !missing.includes(input.id)),
    );
    for (const input of inputs) {
      const object = this.liveObject(type, input.id);
      if (object) Object.assign(object.properties, cleared(input.properties));
    }
    if (missing.length > 0) throw refused(404, `no ${type} with id ${missing.join(', ')}; the others were updated`);
    return [...new Set(inputs.map((input) => input.id))].map((id) => this.answer(this.liveObject(type, id)!));
  }

  async batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Properties }[]): Promise<CrmObject[]> {
    this.validate(type, inputs);
    if (!this.uniqueProperties(type).includes(idProperty)) throw refused(400, `idProperty "${idProperty}" is not a property with unique values on ${type}`);
    if (inputs.some((input) => input.id === '')) throw refused(400, 'every input needs an id: the value of idProperty');
    // An id is a value of idProperty, checked as one (a contact's e-mail address).
    this.validate(
      type,
      inputs.map((input) => ({ properties: { [idProperty]: input.id } })),
    );
    this.checkUniqueValues(
      type,
      inputs.map((input) => ({ id: this.owner(type, idProperty, input.id)?.id ?? null, properties: input.properties })),
      idProperty,
    );
    const written: number[] = [];
    for (const input of inputs) {
      const properties = { ...cleared(input.properties), [idProperty]: input.id };
      const owner = this.owner(type, idProperty, input.id);
      if (owner) {
        Object.assign(owner.properties, properties);
        owner.archived = false;
        written.push(owner.id);
      } else {
        written.push(this.insert(type, properties).id);
      }
    }
    return [...new Set(written)].map((id) => this.answer(this.objects.get(id)!));
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    for (const id of ids) {
      const object = this.liveObject(type, id);
      if (object) object.archived = true;
    }
  }

  async batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]> {
    return [...new Set(ids)]
      .map((id) => this.liveObject(type, id))
      .filter((object): object is StoredObject => !!object)
      .map((object) => ({
        id: object.id,
        properties:
          properties.length > 0
            ? Object.fromEntries(properties.map((name) => [name, Object.hasOwn(object.properties, name) ? object.properties[name] : null]))
            : { ...object.properties },
      }));
  }

  async batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void> {
    const unknown = pairs.flatMap((pair) => [
      ...(this.liveObject(fromType, pair.fromId) ? [] : [`${fromType} ${pair.fromId}`]),
      ...(this.liveObject(toType, pair.toId) ? [] : [`${toType} ${pair.toId}`]),
    ]);
    if (unknown.length > 0) throw refused(404, `unknown ${[...new Set(unknown)].join(', ')}`);
    for (const { fromId, toId } of pairs) {
      const from = this.liveObject(fromType, fromId)!;
      const to = this.liveObject(toType, toId)!;
      if (SINGLE.has(`${fromType}->${toType}`)) from.associations.set(toType, new Set());
      this.linked(from, toType).add(toId);
      this.linked(to, fromType).add(fromId);
    }
  }

  private validate(type: ObjectType, inputs: { properties: Properties }[]): void {
    const definitions = this.definitions(type);
    inputs.forEach((input, index) => {
      for (const [name, value] of Object.entries(input.properties)) {
        const definition = definitions.get(name);
        if (!definition) throw refused(400, `property "${name}" does not exist on ${type} (inputs[${index}])`);
        const problem = valueProblem(type, definition, value);
        if (problem) throw refused(400, `property "${name}" of inputs[${index}]: ${problem}`);
      }
    });
  }

  /** Properties one object at most may hold a value of: those with unique values, and a contact's e-mail. */
  private uniqueProperties(type: ObjectType): string[] {
    const names = [...this.definitions(type).values()].filter((property) => property.hasUniqueValue).map((property) => property.name);
    return type === 'CONTACT' ? [...new Set([...names, 'email'])] : names;
  }

  /** A unique value held by another live object (or twice in the inputs) is a conflict; an archived object holds none. */
  private checkUniqueValues(type: ObjectType, writes: { id: number | null; properties: Properties }[], except?: string): void {
    const claimed = new Set<string>();
    for (const { id, properties } of writes) {
      for (const name of this.uniqueProperties(type).filter((property) => property !== except)) {
        const value = properties[name];
        if (!value) continue;
        const owner = this.owner(type, name, value);
        const key = `${name}\u0000${comparable(type, name, value)}`;
        if (owner && owner.id !== id && name === 'email') throw refused(409, `Contact already exists. Existing ID: ${owner.id}`);
        if ((owner && owner.id !== id) || claimed.has(key)) throw refused(409, 'a unique property value is already taken by another object');
        claimed.add(key);
      }
    }
  }

  private owner(type: ObjectType, property: string, value: string): StoredObject | undefined {
    const wanted = comparable(type, property, value);
    return [...this.objects.values()].find((object) => {
      const held = object.properties[property];
      return object.type === type && !object.archived && !!held && comparable(type, property, held) === wanted;
    });
  }

  private insert(type: ObjectType, properties: Properties): StoredObject {
    const object: StoredObject = { id: this.nextId++, type, properties, associations: new Map(), archived: false };
    this.objects.set(object.id, object);
    return object;
  }

  private liveObject(type: ObjectType, id: number): StoredObject | undefined {
    const object = this.objects.get(id);
    return object && object.type === type && !object.archived ? object : undefined;
  }

  private linked(object: StoredObject, type: ObjectType): Set<number> {
    let ids = object.associations.get(type);
    if (!ids) object.associations.set(type, (ids = new Set()));
    return ids;
  }

  private answer(object: StoredObject): CrmObject {
    return { id: object.id, properties: { ...object.properties } };
  }
}
