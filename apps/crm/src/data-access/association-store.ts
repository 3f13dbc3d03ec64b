import type { mongo } from 'mongoose';
import { driverCollection, findIn } from '@ecomm-sync/data-access';
import { CrmError } from '../domain/crm-error';
import { inverseLabelTypeId, labelIdsOf, specName, typesOfAssociation, type AssociationSpec, type LabelledType } from '../domain/association-labels';
import { isCrmType, SINGLE_ASSOCIATIONS, type CrmType } from '../domain/object-types';
import type { AssociationLabelStore } from './association-label-store';
import { AssociationWrites, type Links } from './association-writes';
import { associationsKey, type AssociationLabelRef, type CrmModels, type ObjectAssociationsDoc } from './crm-models';
import type { ObjectReads } from './object-reads';

/** Two objects to associate; `types` names the association types (none: the default type only). */
export interface AssociationPair {
  from: number;
  to: number;
  types?: readonly AssociationSpec[];
}

/** An associated object and the types of its association (the default, and its labels). */
export interface Associated {
  id: number;
  types: LabelledType[];
}

type Update = Record<string, unknown>;
const hasRef = (refs: readonly AssociationLabelRef[], ref: AssociationLabelRef) => refs.some((one) => one.id === ref.id && one.typeId === ref.typeId);
const pullPair = (id: number) => ({ $pull: { ids: id, labels: { id } } });

/**
 * Associations between objects, both ways, kept beside the objects (decision 56): the document
 * associationsKey(objectId, toType) holds in `ids` every object of `toType` one object is associated
 * with (each association has the default type), and in `labels` the labels some carry besides
 * (`{id, typeId}`; the other object's document holds the label's other direction). An association
 * write changes these small documents, never the objects'.
 */
export class AssociationStore {
  private readonly links: mongo.Collection<ObjectAssociationsDoc>;

  constructor(
    models: CrmModels,
    private readonly reads: Pick<ObjectReads, 'read' | 'liveIds'>,
    private readonly labels: AssociationLabelStore,
  ) {
    this.links = driverCollection<ObjectAssociationsDoc>(models.objectAssociations);
  }

  /** The live objects a live object is associated with, of one type, with their types; null when the object is unknown or archived. */
  async of(portalId: number, fromType: CrmType, id: number, toType: CrmType): Promise<Associated[] | null> {
    const [[object], links] = await Promise.all([this.reads.read(portalId, fromType, [id]), this.linksOf(portalId, [id], toType)]);
    if (!object) return null;
    const { ids, labels: refs } = links.get(id)!;
    const definitions = refs.length > 0 ? await this.labels.between(portalId, fromType, toType) : [];
    return (await this.reads.read(portalId, toType, ids)).map((target) => ({
      id: target.id,
      types: typesOfAssociation(
        refs.filter((ref) => ref.id === target.id).map((ref) => ref.typeId),
        definitions,
        fromType,
        toType,
      ),
    }));
  }

  /**
   * The ids each object is associated with, for each name asked that is a type (other names: none),
   * as the objects API answers `associations=`. The objects are the portal's, read before.
   */
  async idsOf(portalId: number, objectIds: readonly number[], names: readonly string[]): Promise<Map<number, Record<string, number[]>>> {
    const types = [...new Set(names)].filter(isCrmType);
    const keys = [...new Set(objectIds)].flatMap((id) => types.map((type) => associationsKey(id, type)));
    const docs = new Map((await findIn(this.links, '_id', keys)).filter((doc) => doc.portalId === portalId).map((doc) => [doc._id, doc.ids ?? []]));
    return new Map(objectIds.map((id) => [id, Object.fromEntries(types.map((type) => [type, docs.get(associationsKey(id, type)) ?? []]))]));
  }

  /** The labels of each pair's association from → to, as the v4 API answers a create (the SDK's LabelsBetweenObjectPair). */
  async labelsOf(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<string[][]> {
    const fromIds = [...new Set(pairs.map((pair) => pair.from))];
    const [live, links, definitions] = await Promise.all([
      this.reads.liveIds(portalId, fromType, fromIds),
      this.linksOf(portalId, fromIds, toType),
      this.labels.between(portalId, fromType, toType),
    ]);
    return pairs.map((pair) => {
      const refs = live.has(pair.from) ? links.get(pair.from)!.labels : [];
      const typeIds = refs.filter((ref) => ref.id === pair.to).map((ref) => ref.typeId);
      return typesOfAssociation(typeIds, definitions, fromType, toType).flatMap((type) => (type.label === null ? [] : [type.label]));
    });
  }

  /**
   * Associates pairs both ways, each with the labels its types name (an unknown type: 400 before
   * anything is written); a line item's deal and product replace the previous one, labels and all.
   */
  async associate(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<void> {
    const labelIds = await this.labelIds(portalId, fromType, toType, pairs);
    const fromIds = [...new Set(pairs.map((pair) => pair.from))];
    const toIds = [...new Set(pairs.map((pair) => pair.to))];
    // Between objects of one type, both sides are the same documents: read once, so that each is planned in one place.
    const sameType = fromType === toType;
    const [fromFound, toFound, fromLinks, otherLinks] = await Promise.all([
      this.reads.liveIds(portalId, fromType, fromIds),
      this.reads.liveIds(portalId, toType, toIds),
      this.linksOf(portalId, sameType ? [...new Set([...fromIds, ...toIds])] : fromIds, toType),
      sameType ? null : this.linksOf(portalId, toIds, fromType),
    ]);
    const toLinks = otherLinks ?? fromLinks;
    const missingFrom = fromIds.filter((id) => !fromFound.has(id));
    const missingTo = toIds.filter((id) => !toFound.has(id));
    if (missingFrom.length || missingTo.length) {
      throw CrmError.notFound(`Unknown ${[...missingFrom.map((id) => `${fromType} ${id}`), ...missingTo.map((id) => `${toType} ${id}`)].join(', ')}`);
    }
    // Only what is not associated (or labelled) yet is written (an update re-sends its associations every time).
    const single = SINGLE_ASSOCIATIONS.has(`${fromType}->${toType}`);
    const writes = new AssociationWrites(portalId);
    for (const [index, pair] of pairs.entries()) {
      const from = fromLinks.get(pair.from)!;
      // A line item moved to another deal (or product) leaves the one it had: that side forgets it too.
      if (single) {
        for (const previous of from.ids.filter((id) => id !== pair.to)) {
          writes.pull(associationsKey(previous, fromType), toLinks.get(previous), pair.from);
        }
      }
      const forward = this.forward(from, pair.to, labelIds[index], single);
      if (forward) writes.change(associationsKey(pair.from, toType), from, forward, single);
      const to = toLinks.get(pair.to)!;
      const back = this.forward(to, pair.from, labelIds[index].map(inverseLabelTypeId), false);
      if (back) writes.change(associationsKey(pair.to, fromType), to, back, false);
    }
    await writes.execute(this.links);
  }

  /** Removes associations both ways, labels and all; pairs that are not associated (or name unknown objects) change nothing. */
  async dissociate(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<void> {
    const found = await this.livePairs(portalId, fromType, toType, pairs);
    const operations = found.flatMap((pair) => [
      { updateOne: { filter: { _id: associationsKey(pair.from, toType) }, update: pullPair(pair.to) } },
      { updateOne: { filter: { _id: associationsKey(pair.to, fromType) }, update: pullPair(pair.from) } },
    ]);
    if (operations.length > 0) await this.links.bulkWrite(operations, { ordered: true });
  }

  /**
   * Takes the labels the types name off pairs, both ways; the association stays, with its default
   * type (naming the default type takes nothing off). An unknown type: 400 before anything is written.
   */
  async archiveLabels(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<void> {
    const labelIds = await this.labelIds(portalId, fromType, toType, pairs);
    const found = new Set((await this.livePairs(portalId, fromType, toType, pairs)).map((pair) => `${pair.from}:${pair.to}`));
    const operations = pairs.flatMap((pair, index) => {
      const typeIds = labelIds[index];
      if (typeIds.length === 0 || !found.has(`${pair.from}:${pair.to}`)) return [];
      const pull = (id: number, ids: number[]): Update => ({ $pull: { labels: { id, typeId: { $in: ids } } } });
      return [
        { updateOne: { filter: { _id: associationsKey(pair.from, toType) }, update: pull(pair.to, typeIds) } },
        { updateOne: { filter: { _id: associationsKey(pair.to, fromType) }, update: pull(pair.from, typeIds.map(inverseLabelTypeId)) } },
      ];
    });
    if (operations.length > 0) await this.links.bulkWrite(operations, { ordered: true });
  }

  /** Each object's associations with objects of one type (none: empty), keyed by its id. */
  private async linksOf(portalId: number, objectIds: readonly number[], toType: CrmType): Promise<Map<number, Links>> {
    const docs = await findIn(
      this.links,
      '_id',
      objectIds.map((id) => associationsKey(id, toType)),
    );
    const byKey = new Map(docs.filter((doc) => doc.portalId === portalId).map((doc) => [doc._id, doc]));
    return new Map(
      objectIds.map((id) => {
        const doc = byKey.get(associationsKey(id, toType));
        return [id, { ids: doc?.ids ?? [], labels: doc?.labels ?? [], stored: doc !== undefined }];
      }),
    );
  }

  /** The label type ids each pair's types name from → to (none for the default type); 400 naming a type that is not one. */
  private async labelIds(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<number[][]> {
    if (!pairs.some((pair) => pair.types?.length)) return pairs.map(() => []);
    const definitions = await this.labels.between(portalId, fromType, toType);
    return pairs.map((pair) => {
      const resolved = labelIdsOf(pair.types ?? [], fromType, toType, definitions);
      if ('unknown' in resolved)
        throw CrmError.invalidInput(
          `Unknown association type ${specName(resolved.unknown)} from ${fromType} to ${toType}: not a type of this portal between them`,
        );
      return resolved.labels;
    });
  }

  /** The pairs whose objects are both live objects of the portal and types. */
  private async livePairs(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<AssociationPair[]> {
    const [fromIds, toIds] = await Promise.all([
      this.reads.liveIds(portalId, fromType, [...new Set(pairs.map((pair) => pair.from))]),
      this.reads.liveIds(portalId, toType, [...new Set(pairs.map((pair) => pair.to))]),
    ]);
    return pairs.filter((pair) => fromIds.has(pair.from) && toIds.has(pair.to));
  }

  /** The write that associates an object with `to` (and labels it), or null when it already is; `from`, its links, is kept current. */
  private forward(from: Links, to: number, typeIds: number[], single: boolean): Update | null {
    const linked = from.ids;
    const refs = from.labels;
    const fresh = typeIds.map((typeId) => ({ id: to, typeId })).filter((ref) => !hasRef(refs, ref));
    const update: Record<string, Record<string, unknown>> = {};
    if (single) {
      const replaced = !(linked.length === 1 && linked[0] === to);
      if (replaced) update.$set = { ids: [to] };
      if (replaced || fresh.length > 0) {
        // The previous deal's labels go with it.
        const kept = [...refs.filter((ref) => ref.id === to), ...fresh];
        if (refs.length > 0 || kept.length > 0) update.$set = { ...update.$set, labels: kept };
        from.labels = kept;
      }
      from.ids = [to];
    } else {
      if (!linked.includes(to)) update.$addToSet = { ids: to };
      if (fresh.length > 0) update.$addToSet = { ...update.$addToSet, labels: { $each: fresh } };
      from.ids = linked.includes(to) ? linked : [...linked, to];
      from.labels = [...refs, ...fresh];
    }
    return Object.keys(update).length > 0 ? update : null;
  }
}
