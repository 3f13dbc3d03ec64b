import { DEFAULT_ASSOCIATION_TYPES, type CrmType } from './object-types';

/**
 * The first association type id a portal's labels get. Each label takes two ids, one per direction:
 * `typeId` (from → to, as created, always FIRST_LABEL_TYPE_ID + an even number) and `typeId + 1`
 * (to → from). Far above the default types' ids (3, 4, 19, 20), so a type id alone says whether it
 * is a label, and either id finds its label by one key.
 */
export const FIRST_LABEL_TYPE_ID = 1000;

/** A portal's association label between two object types (the hosted CRM's USER_DEFINED type). */
export interface LabelDefinition {
  fromObjectType: CrmType;
  toObjectType: CrmType;
  /** Its internal name, unique per portal and pair of types. */
  name: string;
  /** The type id from → to; `typeId + 1` is the id to → from. */
  typeId: number;
  label: string;
  /** The label of the direction to → from when it differs (a paired label such as Manager / Employee). */
  inverseLabel?: string;
}

export type AssociationCategory = 'HUBSPOT_DEFINED' | 'USER_DEFINED' | 'INTEGRATOR_DEFINED';

/** An association type as a request names it (the SDK's AssociationSpec). */
export interface AssociationSpec {
  associationCategory: AssociationCategory;
  associationTypeId: number;
}

/** An association type as an answer describes it (the SDK's AssociationSpecWithLabel). */
export interface LabelledType {
  category: AssociationCategory;
  typeId: number;
  label: string | null;
}

/** The type id of the label a type id belongs to (its from → to id): `typeId` for both of its ids. */
export const labelKeyOf = (typeId: number): number => typeId - ((((typeId - FIRST_LABEL_TYPE_ID) % 2) + 2) % 2);

/** The default (HUBSPOT_DEFINED) type from one object type to another, if the pair has one. */
export function defaultType(from: CrmType, to: CrmType): LabelledType | null {
  const typeId = DEFAULT_ASSOCIATION_TYPES[`${from}->${to}`];
  return typeId === undefined ? null : { category: 'HUBSPOT_DEFINED', typeId, label: null };
}

/** The labelled types a definition gives the direction from → to (both, for a label of a type with itself). */
export function labelTypes(definition: LabelDefinition, from: CrmType, to: CrmType): LabelledType[] {
  const types: LabelledType[] = [];
  if (definition.fromObjectType === from && definition.toObjectType === to)
    types.push({ category: 'USER_DEFINED', typeId: definition.typeId, label: definition.label });
  if (definition.fromObjectType === to && definition.toObjectType === from)
    types.push({ category: 'USER_DEFINED', typeId: definition.typeId + 1, label: definition.inverseLabel ?? definition.label });
  return types;
}

/** Every type of the direction from → to: the default first, then the portal's labels. */
export const typesBetween = (definitions: readonly LabelDefinition[], from: CrmType, to: CrmType): LabelledType[] => [
  ...[defaultType(from, to)].filter((type): type is LabelledType => type !== null),
  ...definitions.flatMap((definition) => labelTypes(definition, from, to)),
];

/** The type id of the other direction of a label's type id (from → to ⇄ to → from). */
export const inverseLabelTypeId = (typeId: number): number => (labelKeyOf(typeId) === typeId ? typeId + 1 : typeId - 1);

/**
 * The label type ids the specs name for the direction from → to, or the first spec that names no
 * type of it: the default type is always there (and adds no label), a label must be the portal's.
 */
export function labelIdsOf(
  specs: readonly AssociationSpec[],
  from: CrmType,
  to: CrmType,
  definitions: readonly LabelDefinition[],
): { labels: number[] } | { unknown: AssociationSpec } {
  const types = typesBetween(definitions, from, to);
  const labels: number[] = [];
  for (const spec of specs) {
    const type = types.find((one) => one.category === spec.associationCategory && one.typeId === spec.associationTypeId);
    if (!type) return { unknown: spec };
    if (type.category === 'USER_DEFINED' && !labels.includes(type.typeId)) labels.push(type.typeId);
  }
  return { labels };
}

/**
 * The object type an association type leads to from `from` (an association given with a create
 * names its target by id and type only), or null when the type does not start at `from`.
 */
export function targetTypeOf(spec: AssociationSpec, from: CrmType, definitions: readonly LabelDefinition[]): CrmType | null {
  if (spec.associationCategory === 'HUBSPOT_DEFINED') {
    const pair = Object.entries(DEFAULT_ASSOCIATION_TYPES).find(([key, typeId]) => typeId === spec.associationTypeId && key.startsWith(`${from}->`));
    return pair ? (pair[0].slice(from.length + 2) as CrmType) : null;
  }
  if (spec.associationCategory !== 'USER_DEFINED') return null;
  for (const definition of definitions) {
    if (definition.typeId === spec.associationTypeId && definition.fromObjectType === from) return definition.toObjectType;
    if (definition.typeId + 1 === spec.associationTypeId && definition.toObjectType === from) return definition.fromObjectType;
  }
  return null;
}

/** How an association type is named in a message: `USER_DEFINED 1000`. */
export const specName = (spec: AssociationSpec): string => `${spec.associationCategory} ${spec.associationTypeId}`;

/** The types of one association from → to: the default type, and the labels it carries that the portal still has. */
export const typesOfAssociation = (labelIds: readonly number[], definitions: readonly LabelDefinition[], from: CrmType, to: CrmType): LabelledType[] =>
  typesBetween(definitions, from, to).filter((type) => type.category === 'HUBSPOT_DEFINED' || labelIds.includes(type.typeId));

/**
 * Which of a label's directions a type id names, seen from `from` → `to` (as the label endpoints'
 * paths name them): `forward` its as-created direction (`typeId`), `inverse` the other (`typeId + 1`),
 * or null when the id is no type of this label between these object types.
 */
export function directionOf(definition: LabelDefinition, from: CrmType, to: CrmType, typeId: number): 'forward' | 'inverse' | null {
  if (definition.fromObjectType === from && definition.toObjectType === to && definition.typeId === typeId) return 'forward';
  if (definition.fromObjectType === to && definition.toObjectType === from && definition.typeId + 1 === typeId) return 'inverse';
  return null;
}

/**
 * A label renamed through one of its directions: `label` is the name of that direction, and
 * `inverseLabel` (when given) the other's. A label without an inverse has one name for both
 * directions, so renaming either renames both until an inverse is given.
 */
export function renamedLabel(
  definition: Pick<LabelDefinition, 'label' | 'inverseLabel'>,
  direction: 'forward' | 'inverse',
  rename: { label: string; inverseLabel?: string },
): { label: string; inverseLabel?: string } {
  if (direction === 'forward') {
    const inverseLabel = rename.inverseLabel ?? definition.inverseLabel;
    return { label: rename.label, ...(inverseLabel ? { inverseLabel } : {}) };
  }
  if (rename.inverseLabel) return { label: rename.inverseLabel, inverseLabel: rename.label };
  return definition.inverseLabel ? { label: definition.label, inverseLabel: rename.label } : { label: rename.label };
}
