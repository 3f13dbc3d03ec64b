import { type MappedChange, type ObjectType, type Problem, V1_ASSOCIATION_PROPERTIES } from '@ecomm-sync/contracts';
import { describeFailure } from './error-details';

/** The line item's property that ties it to its product in the CRM: the product's CRM id (the vendor's way, not an association). */
export const LINE_ITEM_PRODUCT_PROPERTY = 'hs_product_id';

/**
 * Association types an object needs the CRM ids of, with the v1 property that names each in error
 * details; `crmProperty`: the CRM ties the two by this property of the object, holding the
 * target's CRM id, rather than by an association.
 */
export const ASSOCIATIONS: Partial<Record<ObjectType, { type: ObjectType; property: string; required: boolean; crmProperty?: string }[]>> = {
  LINE_ITEM: [
    { type: 'DEAL', property: V1_ASSOCIATION_PROPERTIES.DEAL_ID, required: true },
    { type: 'PRODUCT', property: V1_ASSOCIATION_PROPERTIES.PRODUCT_ID, required: true, crmProperty: LINE_ITEM_PRODUCT_PROPERTY },
  ],
  DEAL: [{ type: 'CONTACT', property: V1_ASSOCIATION_PROPERTIES.CONTACT_IDS, required: false }],
};

/**
 * Why the v2 messages' `associations` are refused (SPEC.md "Associations": a deal names contacts, a
 * line item its deal and product; nothing else associates): the first message that names an
 * object of a type its object type has no association to, said as the 400 answers it; null when
 * every one fits. A type named with no ids (a client that always sends every key) names nothing.
 */
export function misplacedAssociations(
  objectType: ObjectType,
  messages: readonly { associations?: Partial<Record<ObjectType, readonly unknown[] | null>> | null }[],
  field = 'body/messages',
): string | null {
  const allowed = (ASSOCIATIONS[objectType] ?? []).map((association) => association.type);
  for (const [index, message] of messages.entries()) {
    const misplaced = Object.entries(message.associations ?? {}).find(([type, ids]) => !allowed.includes(type as ObjectType) && (ids?.length ?? 0) > 0)?.[0];
    if (misplaced === undefined) continue;
    const fits = allowed.length > 0 ? `a ${objectType} names only ${allowed.join(' and ')}` : `a ${objectType} has no associations`;
    return `${field}/${index}/associations names ${misplaced}: ${fits} (a DEAL names CONTACT, a LINE_ITEM its DEAL and PRODUCT)`;
  }
  return null;
}

/** How a waiting change names an object it waits for. */
export const waitingKey = (objectType: ObjectType, externalObjectId: string): string => `${objectType}:${externalObjectId}`;

/** The live CRM ids of the objects a change may associate with, by type and external id (from the stored links). */
export type AssociationTargetIds = ReadonlyMap<ObjectType, ReadonlyMap<string, number>>;

/**
 * What one association would do: link to a CRM object; make the object wait for its target (a
 * required target not synced yet, on a create); go without it for now (a required target missing
 * on an update, with an error until it arrives and is linked); or link later, when an optional
 * target arrives.
 */
export interface AssociationTarget {
  objectType: ObjectType;
  externalObjectId: string;
  crmId: number | null;
  outcome: 'links' | 'waits' | 'not-linked' | 'links-later';
}

export interface ResolvedAssociations {
  /** CRM ids to associate with, by type. */
  associations: Partial<Record<ObjectType, number[]>>;
  /** Targets a create waits for (waitingKey). */
  waitingFor: string[];
  /** Optional targets not synced yet: associated when they arrive (waitingKey). */
  associateLater: string[];
  problems: Problem[];
  targets: AssociationTarget[];
}

/**
 * The applier's association rule (SPEC.md "Errors"; decision 23, waiting is not failing), as a
 * function of the stored links: the applier writes by it, the console's dry run shows it.
 */
export function resolveAssociations(
  objectType: ObjectType,
  change: Pick<MappedChange, 'externalObjectId' | 'associations'>,
  found: AssociationTargetIds,
  isCreate: boolean,
): ResolvedAssociations {
  const resolved: ResolvedAssociations = { associations: {}, waitingFor: [], associateLater: [], problems: [], targets: [] };
  let ambiguous = false;
  for (const { type, property, required } of ASSOCIATIONS[objectType] ?? []) {
    const wanted = change.associations[type] ?? [];
    // A required target is one object (SPEC.md: a line item's deal and product, "Multiple allowed: no").
    if (required && wanted.length > 1) {
      ambiguous = true;
      resolved.problems.push({
        type: 'INVALID_ASSOCIATION_PROPERTY',
        blocking: isCreate,
        details: describeFailure(
          isCreate ? 'CREATE' : 'UPDATE',
          objectType,
          change.externalObjectId,
          `a ${objectType} has one ${type}, ${wanted.length} were given; send one id`,
          { [property]: wanted.join(',') },
        ),
      });
      continue;
    }
    const crmIds: number[] = [];
    const missing: string[] = [];
    for (const id of wanted) {
      const crmId = found.get(type)?.get(id);
      if (crmId !== undefined) crmIds.push(crmId);
      else missing.push(id);
      resolved.targets.push({
        objectType: type,
        externalObjectId: id,
        crmId: crmId ?? null,
        outcome: crmId !== undefined ? 'links' : !required ? 'links-later' : isCreate ? 'waits' : 'not-linked',
      });
    }
    if (required && missing.length > 0) {
      if (isCreate) resolved.waitingFor.push(...missing.map((id) => waitingKey(type, id)));
      resolved.problems.push({
        type: 'INVALID_ASSOCIATION_PROPERTY',
        blocking: isCreate,
        details: describeFailure(isCreate ? 'CREATE' : 'UPDATE', objectType, change.externalObjectId, `no synced ${type} has this id`, {
          [property]: missing[0],
        }),
      });
    }
    // Invalid optional associations cause no error (SPEC.md); they are made if the objects arrive.
    // A required one missing on an update is written without it, with its error, and made (the
    // error resolved) if the object arrives, as a create that waited would be.
    if (!required || !isCreate) resolved.associateLater.push(...missing.map((id) => waitingKey(type, id)));
    if (crmIds.length > 0) resolved.associations[type] = crmIds;
  }
  // Nothing to wait for: whatever arrives, the change cannot be written as sent.
  if (ambiguous) resolved.waitingFor = [];
  return resolved;
}
