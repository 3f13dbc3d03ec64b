import { CrmError } from '../domain/crm-error';
import { FIRST_LABEL_TYPE_ID, labelKeyOf, type LabelDefinition } from '../domain/association-labels';
import type { CrmType } from '../domain/object-types';
import type { CrmModels } from './crm-models';
import { isDuplicateKey } from './duplicate-key';

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

/** A portal's association labels (USER_DEFINED types), one document per label for both directions. */
export class AssociationLabelStore {
  constructor(private readonly models: CrmModels) {}

  /** The labels between two types, made either way round. */
  async between(portalId: number, one: CrmType, other: CrmType): Promise<LabelDefinition[]> {
    const docs = await this.models.associationLabels
      .find({
        portalId,
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
    return (await this.models.associationLabels.find({ portalId, typeId: { $in: keys } }).lean<LabelDefinition[]>()).map(toDefinition);
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
        if (!isDuplicateKey(error)) throw error;
        // Another create took the name (then this one is refused) or the type ids (then it takes the next).
        const lost = await taken();
        if (lost) throw lost;
      }
    }
    throw new Error(`Could not give the association label "${input.name}" type ids after ${TYPE_ID_ATTEMPTS} attempts`);
  }
}
