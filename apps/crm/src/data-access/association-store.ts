import type { mongo } from 'mongoose';
import { driverCollection } from '@ecomm-sync/data-access';
import { CrmError } from '../domain/crm-error';
import { inverseLabelTypeId, labelIdsOf, specName, typesOfAssociation, type AssociationSpec, type LabelledType } from '../domain/association-labels';
import { SINGLE_ASSOCIATIONS, type CrmType } from '../domain/object-types';
import type { AssociationLabelStore } from './association-label-store';
import type { AssociationLabelRef, CrmModels, CrmObjectDoc } from './crm-models';
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

type Update = Record<string, Record<string, unknown>>;
/** What this store reads and keeps current of an object while it plans its writes. */
type AssociationFields = Pick<CrmObjectDoc, 'associations' | 'associationLabels'>;
const labelsOf = (object: AssociationFields, type: CrmType): AssociationLabelRef[] => object.associationLabels?.[type] ?? [];
const hasRef = (refs: readonly AssociationLabelRef[], ref: AssociationLabelRef) => refs.some((one) => one.id === ref.id && one.typeId === ref.typeId);

/**
 * Associations between objects, both ways, kept on each object: `associations.{type}` holds every
 * associated id (each association has the default type), and `associationLabels.{type}` the labels
 * some carry besides (`{id, typeId}`; the other object holds the label's other direction).
 */
export class AssociationStore {
  private readonly objects: mongo.Collection<CrmObjectDoc>;

  constructor(
    models: CrmModels,
    private readonly reads: Pick<ObjectReads, 'read'>,
    private readonly labels: AssociationLabelStore,
  ) {
    this.objects = driverCollection<CrmObjectDoc>(models.objects);
  }

  /** The live objects a live object is associated with, of one type, with their types; null when the object is unknown or archived. */
  async of(portalId: number, fromType: CrmType, id: number, toType: CrmType): Promise<Associated[] | null> {
    const [object] = await this.reads.read(portalId, fromType, [id]);
    if (!object) return null;
    const ids = Object.hasOwn(object.associations ?? {}, toType) ? object.associations[toType] : [];
    const refs = labelsOf(object, toType);
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

  /** The labels of each pair's association from → to, as the v4 API answers a create (the SDK's LabelsBetweenObjectPair). */
  async labelsOf(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<string[][]> {
    const objects = new Map((await this.reads.read(portalId, fromType, [...new Set(pairs.map((pair) => pair.from))])).map((object) => [object.id, object]));
    const definitions = await this.labels.between(portalId, fromType, toType);
    return pairs.map((pair) => {
      const object = objects.get(pair.from);
      const typeIds = (object ? labelsOf(object, toType) : []).filter((ref) => ref.id === pair.to).map((ref) => ref.typeId);
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
    const [fromFound, toFound] = await Promise.all([this.reads.read(portalId, fromType, fromIds), this.reads.read(portalId, toType, toIds)]);
    const missingFrom = fromIds.filter((id) => !fromFound.some((doc) => doc.id === id));
    const missingTo = toIds.filter((id) => !toFound.some((doc) => doc.id === id));
    if (missingFrom.length || missingTo.length) {
      throw CrmError.notFound(`Unknown ${[...missingFrom.map((id) => `${fromType} ${id}`), ...missingTo.map((id) => `${toType} ${id}`)].join(', ')}`);
    }
    // Only what is not associated (or labelled) yet is written (an update re-sends its associations every time).
    const single = SINGLE_ASSOCIATIONS.has(`${fromType}->${toType}`);
    const fromById = new Map(fromFound.map((object) => [object.id, object]));
    const toById = new Map(toFound.map((object) => [object.id, object]));
    const operations = [];
    for (const [index, pair] of pairs.entries()) {
      const from = fromById.get(pair.from)!;
      const to = toById.get(pair.to)!;
      // A line item moved to another deal (or product) leaves the one it had: that side forgets it too.
      if (single) {
        for (const previous of (from.associations?.[toType] ?? []).filter((id) => id !== pair.to)) {
          const pull = { $pull: { [`associations.${fromType}`]: pair.from, [`associationLabels.${fromType}`]: { id: pair.from } } };
          operations.push({ updateOne: { filter: { _id: previous }, update: pull } });
        }
      }
      const forward = this.forward(from, toType, pair.to, labelIds[index], single);
      if (forward) operations.push({ updateOne: { filter: { _id: pair.from }, update: forward } });
      const back = this.forward(to, fromType, pair.from, labelIds[index].map(inverseLabelTypeId), false);
      if (back) operations.push({ updateOne: { filter: { _id: pair.to }, update: back } });
    }
    if (operations.length > 0) await this.objects.bulkWrite(operations, { ordered: true });
  }

  /** Removes associations both ways, labels and all; pairs that are not associated (or name unknown objects) change nothing. */
  async dissociate(portalId: number, fromType: CrmType, toType: CrmType, pairs: readonly AssociationPair[]): Promise<void> {
    const found = await this.livePairs(portalId, fromType, toType, pairs);
    const operations = found.flatMap((pair) => [
      {
        updateOne: { filter: { _id: pair.from }, update: { $pull: { [`associations.${toType}`]: pair.to, [`associationLabels.${toType}`]: { id: pair.to } } } },
      },
      {
        updateOne: {
          filter: { _id: pair.to },
          update: { $pull: { [`associations.${fromType}`]: pair.from, [`associationLabels.${fromType}`]: { id: pair.from } } },
        },
      },
    ]);
    if (operations.length > 0) await this.objects.bulkWrite(operations, { ordered: true });
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
      const pull = (path: string, id: number, ids: number[]) => ({ $pull: { [path]: { id, typeId: { $in: ids } } } });
      return [
        { updateOne: { filter: { _id: pair.from }, update: pull(`associationLabels.${toType}`, pair.to, typeIds) } },
        { updateOne: { filter: { _id: pair.to }, update: pull(`associationLabels.${fromType}`, pair.from, typeIds.map(inverseLabelTypeId)) } },
      ];
    });
    if (operations.length > 0) await this.objects.bulkWrite(operations, { ordered: true });
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
    const [fromFound, toFound] = await Promise.all([
      this.reads.read(portalId, fromType, [...new Set(pairs.map((pair) => pair.from))]),
      this.reads.read(portalId, toType, [...new Set(pairs.map((pair) => pair.to))]),
    ]);
    const fromIds = new Set(fromFound.map((object) => object.id));
    const toIds = new Set(toFound.map((object) => object.id));
    return pairs.filter((pair) => fromIds.has(pair.from) && toIds.has(pair.to));
  }

  /** The write that associates `from` with `to` (and labels it), or null when it already is; `from` is kept current. */
  private forward(from: AssociationFields, toType: CrmType, to: number, typeIds: number[], single: boolean): Update | null {
    const linked = from.associations?.[toType] ?? [];
    const refs = labelsOf(from, toType);
    const fresh = typeIds.map((typeId) => ({ id: to, typeId })).filter((ref) => !hasRef(refs, ref));
    const update: Update = {};
    if (single) {
      const replaced = !(linked.length === 1 && linked[0] === to);
      if (replaced) update.$set = { [`associations.${toType}`]: [to] };
      if (replaced || fresh.length > 0) {
        // The previous deal's labels go with it.
        const kept = [...refs.filter((ref) => ref.id === to), ...fresh];
        if (refs.length > 0 || kept.length > 0) update.$set = { ...update.$set, [`associationLabels.${toType}`]: kept };
        from.associationLabels = { ...from.associationLabels, [toType]: kept };
      }
      from.associations = { ...from.associations, [toType]: [to] };
    } else {
      if (!linked.includes(to)) update.$addToSet = { [`associations.${toType}`]: to };
      if (fresh.length > 0) update.$addToSet = { ...update.$addToSet, [`associationLabels.${toType}`]: { $each: fresh } };
      from.associations = { ...from.associations, [toType]: linked.includes(to) ? linked : [...linked, to] };
      from.associationLabels = { ...from.associationLabels, [toType]: [...refs, ...fresh] };
    }
    return Object.keys(update).length > 0 ? update : null;
  }
}
