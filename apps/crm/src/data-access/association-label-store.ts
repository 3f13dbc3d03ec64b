import type { mongo } from 'mongoose';
import { driverCollection, onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { CrmError } from '../domain/crm-error';
import { directionOf, FIRST_LABEL_TYPE_ID, labelKeyOf, renamedLabel, type LabelDefinition } from '../domain/association-labels';
import type { CrmType } from '../domain/object-types';
import type { CrmModels, ObjectAssociationsDoc } from './crm-models';

/** How often a create takes the next type ids when concurrent creates took the ones it chose. */
const TYPE_ID_ATTEMPTS = 20;

const toDefinition = (doc: LabelDefinition): LabelDefinition => ({
  fromObjectType: doc.fromObjectType,
  toObjectType: doc.toObjectType,
  name: doc.name,
  typeId: doc.typeId,
  label: doc.label,
  ...(doc.inverseLabel ? { inverseLabel: doc.inverseLabel } : {}),
});

/** Live labels only: a deleted label's document stays (its type ids are never given again). */
const LIVE = { deletedAt: null };

/** A portal's association labels (USER_DEFINED types), one document per label for both directions. */
export class AssociationLabelStore {
  private readonly links: mongo.Collection<ObjectAssociationsDoc>;

  constructor(private readonly models: CrmModels) {
    this.links = driverCollection<ObjectAssociationsDoc>(models.objectAssociations);
  }

  /** The labels between two types, made either way round. */
  async between(portalId: number, one: CrmType, other: CrmType): Promise<LabelDefinition[]> {
    const docs = await this.models.associationLabels
      .find({
        portalId,
        ...LIVE,
        $or: [
          { fromObjectType: one, toObjectType: other },
          { fromObjectType: other, toObjectType: one },
        ],
      })
      .sort({ typeId: 1 })
      .lean<LabelDefinition[]>();
    return docs.map(toDefinition);
  }

  /** The labels either of whose type ids is one of these. */
  async byTypeIds(portalId: number, typeIds: readonly number[]): Promise<LabelDefinition[]> {
    const keys = [...new Set(typeIds.filter((typeId) => typeId >= FIRST_LABEL_TYPE_ID).map(labelKeyOf))];
    if (keys.length === 0) return [];
    return (await this.models.associationLabels.find({ portalId, typeId: { $in: keys }, ...LIVE }).lean<LabelDefinition[]>()).map(toDefinition);
  }

  /**
   * A new label from one type to another, with the next two type ids of the portal (one per
   * direction). Its name is the portal's once per pair of types, either way round (409 otherwise).
   */
  async create(portalId: number, from: CrmType, to: CrmType, input: { name: string; label: string; inverseLabel?: string }): Promise<LabelDefinition> {
    const taken = async () =>
      (await this.between(portalId, from, to)).some((definition) => definition.name === input.name)
        ? CrmError.conflict(`An association label named "${input.name}" already exists between ${from} and ${to}`)
        : null;
    const conflict = await taken();
    if (conflict) throw conflict;
    for (let attempt = 0; attempt < TYPE_ID_ATTEMPTS; attempt++) {
      const [highest] = await this.models.associationLabels.find({ portalId }).sort({ typeId: -1 }).limit(1).lean<LabelDefinition[]>();
      const definition: LabelDefinition = {
        fromObjectType: from,
        toObjectType: to,
        name: input.name,
        typeId: highest ? highest.typeId + 2 : FIRST_LABEL_TYPE_ID,
        label: input.label,
        ...(input.inverseLabel ? { inverseLabel: input.inverseLabel } : {}),
      };
      try {
        await this.models.associationLabels.create({ portalId, ...definition });
        return definition;
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        // Another create took the name (then this one is refused) or the type ids (then it takes the next).
        const lost = await taken();
        if (lost) throw lost;
      }
    }
    throw new Error(`Could not give the association label "${input.name}" type ids after ${TYPE_ID_ATTEMPTS} attempts`);
  }

  /**
   * Renames a label through the type id of one of its directions between `from` and `to` (the
   * SDK's PublicAssociationDefinitionUpdateRequest): `label` names that direction, `inverseLabel`
   * the other. Its name and type ids stay. 404 when the id is no label of the portal between them.
   */
  async rename(portalId: number, from: CrmType, to: CrmType, input: { associationTypeId: number; label: string; inverseLabel?: string }): Promise<void> {
    const { definition, direction } = await this.labelOf(portalId, from, to, input.associationTypeId);
    const { label, inverseLabel } = renamedLabel(definition, direction, input);
    const renamed = await this.models.associationLabels.updateOne(
      { portalId, typeId: definition.typeId, ...LIVE },
      { $set: { label, ...(inverseLabel ? { inverseLabel } : {}) } },
    );
    if (renamed.matchedCount === 0) throw unknownLabel(from, to, input.associationTypeId);
  }

  /**
   * Deletes a label named by the type id of one of its directions between `from` and `to`, and takes
   * it off every association of the portal that carries it: the associations stay, with their
   * default type (as the hosted CRM's "remove a label from the association between two object
   * types"). The document stays with its name freed, so the label's type ids are never given to
   * another label. 404 when the id is no label of the portal between them.
   */
  async remove(portalId: number, from: CrmType, to: CrmType, typeId: number): Promise<void> {
    const { definition } = await this.labelOf(portalId, from, to, typeId);
    const deleted = await this.models.associationLabels.updateOne(
      { portalId, typeId: definition.typeId, ...LIVE },
      // A name no label can have (names start with a letter, digit or _): the portal may use it again.
      { $set: { deletedAt: new Date(), name: `#deleted-${definition.typeId}` } },
    );
    if (deleted.matchedCount === 0) throw unknownLabel(from, to, typeId);
    // Each object's associations hold their own direction's id (`typeId` or `typeId + 1`): both go.
    const typeIds = [definition.typeId, definition.typeId + 1];
    await this.links.updateMany({ portalId, 'labels.typeId': { $in: typeIds } }, {
      $pull: { labels: { typeId: { $in: typeIds } } },
    } as mongo.UpdateFilter<ObjectAssociationsDoc>);
  }

  /** The live label one of whose directions between `from` and `to` the type id is, and which direction; 404 otherwise. */
  private async labelOf(
    portalId: number,
    from: CrmType,
    to: CrmType,
    typeId: number,
  ): Promise<{ definition: LabelDefinition; direction: 'forward' | 'inverse' }> {
    const doc =
      typeId >= FIRST_LABEL_TYPE_ID
        ? await this.models.associationLabels.findOne({ portalId, typeId: labelKeyOf(typeId), ...LIVE }).lean<LabelDefinition>()
        : null;
    const definition = doc ? toDefinition(doc) : null;
    const direction = definition ? directionOf(definition, from, to, typeId) : null;
    if (!definition || !direction) throw unknownLabel(from, to, typeId);
    return { definition, direction };
  }
}

const unknownLabel = (from: CrmType, to: CrmType, typeId: number) => CrmError.notFound(`No association label with type id ${typeId} from ${from} to ${to}`);
