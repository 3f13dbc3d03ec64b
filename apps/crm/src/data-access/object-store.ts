import { driverCollection, duplicateKeyIndexes, onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { ownValue } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import { initialHistory } from '../domain/property-history';
import type { CrmType } from '../domain/object-types';
import { storedValue } from '../domain/validate-values';
import type { CrmModels } from './crm-models';
import { ObjectIdAllocator } from './object-ids';
import { isLive, ObjectReads, type Properties, type StoredObject } from './object-reads';
import type { PropertyStore } from './property-store';
import type { ClaimedWrite } from './unique-claims';
import { uniqueProperties } from './unique-values';
import { upsertOwners } from './upsert-owners';
import { historyPush, normalise, setProperties, upsertById } from './object-write-docs';

export type { Properties, SearchGroup, StoredObject } from './object-reads';

/** Objects of every type: batch writes, over the reads and search of ObjectReads. */
export class ObjectStore extends ObjectReads {
  private readonly ids: ObjectIdAllocator;

  constructor(models: CrmModels, propertyStore: PropertyStore) {
    super(models, propertyStore);
    this.ids = new ObjectIdAllocator(driverCollection<{ _id: number }>(models.idBlocks));
  }

  private objectDoc(portalId: number, objectType: CrmType, id: number, properties: Properties, now: Date) {
    return {
      _id: id,
      portalId,
      objectType,
      id,
      properties,
      history: initialHistory(properties, now),
      archived: false,
      createdAt: now,
      updatedAt: now,
    };
  }

  async create(portalId: number, objectType: CrmType, inputs: { properties: Record<string, unknown> }[]): Promise<StoredObject[]> {
    const definitions = await this.propertyStore.validateProperties(portalId, objectType, inputs);
    const ids = await this.ids.allocate(inputs.length);
    const now = new Date();
    const docs = inputs.map((input, i) => this.objectDoc(portalId, objectType, ids[i], normalise(input.properties, definitions), now));
    await this.claims.claim(
      portalId,
      objectType,
      uniqueProperties(objectType, definitions),
      docs.map((doc) => ({ id: doc.id, after: doc.properties })),
    );
    await this.objects.insertMany(docs, { ordered: false }).catch((error: unknown) => this.settleCreate(portalId, objectType, docs, error, now));
    return docs;
  }

  /**
   * A create's insert refused as duplicates: an upsert of one of its unique values found the claim
   * this create had just made and wrote the object by its id first, answering it as an existing
   * object. That upsert counts as the later write: the create adds only the properties it left
   * unset, and answers the objects as they then are. Any other failure is thrown.
   */
  private async settleCreate(portalId: number, objectType: CrmType, docs: StoredObject[], error: unknown, now: Date): Promise<void> {
    const clashed = duplicateKeyIndexes(error);
    if (!clashed) throw error;
    const stored = new Map(
      (
        await this.read(
          portalId,
          objectType,
          clashed.map((i) => docs[i].id),
        )
      ).map((object) => [object.id, object]),
    );
    const writes = [];
    for (const i of clashed) {
      const object = stored.get(docs[i].id);
      if (!object) throw CrmError.conflict(`${objectType} ${docs[i].id} was written and archived by another request while this one created it; retry`);
      const unset = Object.fromEntries(Object.entries(docs[i].properties).filter(([name]) => ownValue(object.properties, name) === undefined));
      docs[i] = { ...object, properties: { ...unset, ...object.properties } };
      if (Object.keys(unset).length === 0) continue;
      writes.push({ updateOne: { filter: { _id: object.id, portalId, objectType }, update: { $set: setProperties(unset), $push: historyPush(unset, now) } } });
    }
    if (writes.length > 0) await this.objects.bulkWrite(writes, { ordered: true });
  }

  /** Writes only what changes: an input equal to the object as stored writes nothing. */
  async update(portalId: number, objectType: CrmType, inputs: { id: string | number; properties: Record<string, unknown> }[]): Promise<StoredObject[]> {
    const definitions = await this.propertyStore.validateProperties(portalId, objectType, inputs);
    const ids = inputs.map((input) => Number(input.id));
    // Only the portal's live objects of this type are written; the writes then go by _id alone.
    const current = new Map((await this.read(portalId, objectType, ids)).map((object) => [object.id, object]));
    const missing = ids.filter((id) => !current.has(id));
    const now = new Date();
    const writes = [];
    const claimed: ClaimedWrite[] = [];
    for (const input of inputs) {
      const object = current.get(Number(input.id));
      if (!object) continue;
      const changes = Object.fromEntries(
        Object.entries(normalise(input.properties, definitions)).filter(([name, value]) => (ownValue(object.properties, name) ?? null) !== value),
      );
      if (Object.keys(changes).length === 0) continue;
      writes.push({
        updateOne: { filter: { _id: object.id }, update: { $set: setProperties(changes, { updatedAt: now }), $push: historyPush(changes, now) } },
      });
      claimed.push({ id: object.id, before: current.get(object.id)!.properties, after: changes });
      current.set(object.id, { ...object, properties: { ...object.properties, ...changes }, updatedAt: now });
    }
    const release = await this.claims.claim(portalId, objectType, uniqueProperties(objectType, definitions), claimed);
    if (writes.length > 0) await this.objects.bulkWrite(writes, { ordered: true });
    await release();
    if (missing.length > 0) throw CrmError.notFound(`No ${objectType} with id ${missing.join(', ')} (archived or never created); the others were updated`);
    return [...new Set(ids)].map((id) => current.get(id)!);
  }

  /**
   * Create or update by a unique property (contacts also by `email`, without case); a retried
   * upsert finds the object the first one made, and concurrent upserts of one value write one object.
   */
  async upsert(
    portalId: number,
    objectType: CrmType,
    inputs: { id: string; idProperty: string; properties: Record<string, unknown> }[],
  ): Promise<(StoredObject & { created: boolean })[]> {
    const definitions = await this.propertyStore.validateProperties(portalId, objectType, inputs);
    const idProperty = inputs[0]?.idProperty;
    if (!idProperty || inputs.some((input) => input.idProperty !== idProperty)) throw CrmError.invalidInput('every input needs the same idProperty');
    const uniques = uniqueProperties(objectType, definitions);
    if (!uniques.includes(idProperty)) throw CrmError.invalidInput(`idProperty "${idProperty}" is not a property with unique values on ${objectType}`);
    if (inputs.some((input) => typeof input.id !== 'string' || input.id === ''))
      throw CrmError.invalidInput('every input needs an id: the value of idProperty');
    // An id is a value of idProperty: checked, and kept, as any value of it (an e-mail's check, an ISO date's epoch form).
    await this.propertyStore.validateProperties(
      portalId,
      objectType,
      inputs.map((input) => ({ properties: { [idProperty]: input.id } })),
    );
    const idOf = (input: { id: string }) => storedValue(definitions.get(idProperty), input.id);

    const { owners, fresh, made, read } = await upsertOwners(
      this.claims,
      (count) => this.ids.allocate(count),
      { portalId, objectType, property: idProperty },
      inputs.map(idOf),
    );
    const now = new Date();
    const created = new Set(fresh);
    const live = new Map<number, StoredObject>();
    for (const [id, doc] of read) if (isLive(doc, portalId, objectType)) live.set(id, doc as unknown as StoredObject);
    const writes = inputs.map((input) => ({
      id: owners.get(idOf(input))!,
      properties: { ...normalise(input.properties, definitions), [idProperty]: idOf(input) },
    }));
    // Refused (another object holds a value it writes), the upsert leaves none of its claims behind.
    const release = await this.claimOthers(portalId, objectType, uniques, idProperty, writes, live).catch(async (error: unknown) => {
      await this.claims.takeover.drop(made);
      throw error;
    });
    // Objects whose claim this call made do not exist yet: written whole. Every other write (and a
    // second input for the same object) updates by _id, creating the object if its claim's writer
    // is still on its way to writing it.
    const inserts: typeof writes = [];
    const updates: typeof writes = [];
    for (const write of writes) (fresh.delete(write.id) ? inserts : updates).push(write);
    /** Each object as this call leaves it: as inserted, or as read before the write with what it wrote. */
    const answer = new Map<number, StoredObject>();
    if (inserts.length > 0) {
      const docs = inserts.map(({ id, properties }) => this.objectDoc(portalId, objectType, id, properties, now));
      await this.objects.insertMany(docs, { ordered: true }).then(
        () => docs.forEach((doc) => answer.set(doc.id, doc)),
        (error) => {
          if (!onlyDuplicateKeyErrors(error)) throw error;
          // A concurrent upsert of the same values found our claims and wrote first: update them all.
          updates.unshift(...inserts);
        },
      );
    }
    if (updates.length > 0)
      await this.objects.bulkWrite(
        updates.map(({ id, properties }) => upsertById(portalId, objectType, id, properties, now)),
        { ordered: true },
      );
    const unread = new Set<number>();
    for (const { id, properties } of updates) {
      const before = answer.get(id) ?? live.get(id);
      if (before && !unread.has(id)) answer.set(id, { ...before, properties: { ...before.properties, ...properties }, archived: false, updatedAt: now });
      else unread.add(id);
    }
    // Objects not read before (their claim's writer had not written them yet) are read back.
    for (const object of await this.read(portalId, objectType, [...unread])) answer.set(object.id, object);
    await release();
    return [...new Set(writes.map(({ id }) => id))]
      .map((id) => answer.get(id))
      .filter((object): object is StoredObject => !!object)
      .map((object) => ({ ...object, created: created.has(object.id) }));
  }

  /** Claims the unique values an upsert writes besides its idProperty (a contact's e-mail, a sync key), over the objects as read before. */
  private async claimOthers(
    portalId: number,
    objectType: CrmType,
    uniques: string[],
    idProperty: string,
    writes: { id: number; properties: Properties }[],
    current: ReadonlyMap<number, StoredObject>,
  ): Promise<() => Promise<void>> {
    const others = uniques.filter((name) => name !== idProperty && writes.some((write) => write.properties[name] !== undefined));
    if (others.length === 0) return async () => undefined;
    return this.claims.claim(
      portalId,
      objectType,
      others,
      writes.map(({ id, properties }) => ({ id, before: current.get(id)?.properties, after: properties })),
    );
  }

  async archive(portalId: number, objectType: CrmType, ids: number[]): Promise<void> {
    const owned = await this.read(portalId, objectType, ids);
    if (owned.length === 0) return;
    await this.objects.updateMany({ _id: { $in: owned.map((object) => object.id) } }, { $set: { archived: true, updatedAt: new Date() } });
    await this.claims.release(portalId, objectType, uniqueProperties(objectType, await this.propertyStore.definitions(portalId, objectType)), owned);
  }
}
