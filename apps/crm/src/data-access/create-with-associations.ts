import { CrmError } from '../domain/crm-error';
import { specName, targetTypeOf, type AssociationSpec } from '../domain/association-labels';
import type { CrmType } from '../domain/object-types';
import type { AssociationPair } from './association-store';
import type { CrmStore } from './crm-store';
import type { StoredObject } from './object-reads';

/** An association given with a create (the SDK's PublicAssociationsForObject): the target by id, and the types that lead to it. */
export interface AssociationOnCreate {
  to: { id: string | number };
  types: readonly AssociationSpec[];
}

export interface CreateInput {
  properties: Record<string, unknown>;
  associations?: readonly AssociationOnCreate[];
}

/** The hosted CRM's names of the object types in its errors' `INVALID_OBJECT_IDS`. */
const HOSTED_TYPE_NAME: Record<CrmType, string> = { contacts: 'CONTACT', deals: 'DEAL', products: 'PRODUCT', line_items: 'LINE_ITEM' };

interface Planned {
  /** The input whose object the association starts at. */
  index: number;
  toType: CrmType;
  to: number;
  types: readonly AssociationSpec[];
}

type Stores = Pick<CrmStore, 'objects' | 'associations' | 'associationLabels'>;

/**
 * Creates objects with the associations their inputs name (the objects API's basic and batch
 * create). Every association is checked before anything is written: its types must lead from this
 * type to one other type (400 naming the type otherwise), and its target must be a live object of
 * that type (400 "One or more associations are invalid", naming the targets, as the hosted CRM).
 */
export async function createWithAssociations(stores: Stores, portalId: number, objectType: CrmType, inputs: readonly CreateInput[]): Promise<StoredObject[]> {
  const planned = await plan(stores, portalId, objectType, inputs);
  const created = await stores.objects.create(portalId, objectType, [...inputs]);
  const byType = new Map<CrmType, AssociationPair[]>();
  for (const { index, toType, to, types } of planned) byType.set(toType, [...(byType.get(toType) ?? []), { from: created[index].id, to, types }]);
  for (const [toType, pairs] of byType) await stores.associations.associate(portalId, objectType, toType, pairs);
  return created;
}

async function plan(stores: Stores, portalId: number, objectType: CrmType, inputs: readonly CreateInput[]): Promise<Planned[]> {
  const given = inputs.flatMap((input, index) => (input.associations ?? []).map((association) => ({ index, association })));
  if (given.length === 0) return [];
  const labelTypeIds = given.flatMap(({ association }) =>
    association.types.filter((spec) => spec.associationCategory === 'USER_DEFINED').map((spec) => spec.associationTypeId),
  );
  const definitions = await stores.associationLabels.byTypeIds(portalId, labelTypeIds);
  const planned = given.map(({ index, association }) => {
    const targets = association.types.map((spec) => ({ spec, toType: targetTypeOf(spec, objectType, definitions) }));
    const unknown = targets.find((target) => target.toType === null);
    if (unknown) throw CrmError.invalidInput(`Unknown association type ${specName(unknown.spec)} from ${objectType}: not a type of this portal`);
    const toType = targets[0].toType!;
    const other = targets.find((target) => target.toType !== toType);
    if (other) throw CrmError.invalidInput(`The association types of one association lead to ${toType} and ${other.toType} (${specName(other.spec)})`);
    return { index, toType, to: Number(association.to.id), types: association.types };
  });
  const invalid: string[] = [];
  for (const toType of new Set(planned.map((one) => one.toType))) {
    const ids = [...new Set(planned.filter((one) => one.toType === toType).map((one) => one.to))];
    const live = new Set((await stores.objects.read(portalId, toType, ids)).map((object) => object.id));
    invalid.push(...ids.filter((id) => !live.has(id)).map((id) => `${HOSTED_TYPE_NAME[toType]}=${id} is not valid`));
  }
  if (invalid.length > 0) throw CrmError.invalidInput('One or more associations are invalid', { context: { INVALID_OBJECT_IDS: invalid } });
  return planned;
}
