import type { MappedChange, ObjectType, Problem } from '@ecomm-sync/contracts';
import { ASSOCIATIONS, resolveAssociations, type AssociationTargetIds } from './association-targets';
import { ECOMM_SYNCED_PROPERTY } from './ecommerce-setup';
import { validateChange } from './validate-change';

/** What is stored of an object's CRM link. */
export interface StoredLink {
  crmId: number | null;
  generation: number;
  archived: boolean;
}

/** A change to write: to its linked CRM object (`crmId`), or to create (null). */
export interface PlannedWrite {
  change: MappedChange;
  crmId: number | null;
  properties: Record<string, string | null>;
  /** CRM associations to make, by type (a line item's product is the `hs_product_id` property instead). */
  associations: Partial<Record<ObjectType, number[]>>;
  /** Objects of optional associations that are not synced yet: associated when they arrive. */
  associateLater: string[];
  /** Problems that do not stop the write (recorded with it). */
  problems: Problem[];
  /** The link of an earlier generation this create replaces (archived with staleCrmIds): recorded should the create fail. */
  replaces?: StoredLink;
}

export interface UpsertPlan {
  writes: PlannedWrite[];
  /** Creates that wait for the objects they must associate with (waitingKey of each). */
  waits: { change: MappedChange; problems: Problem[]; waitingFor: string[] }[];
  /** Changes not to write: a blocking problem each; `link`: the earlier generation's link, archived with staleCrmIds. */
  fails: { change: MappedChange; problems: Problem[]; link?: StoredLink }[];
  /** CRM objects of an earlier generation (the object was deleted and made again): archived. */
  staleCrmIds: number[];
}

export interface UpsertContext {
  /** The stored link of each change's object, by external id. */
  links: ReadonlyMap<string, StoredLink>;
  /** The properties the portal's CRM defines for the type. */
  definedProperties: ReadonlySet<string>;
  /** The live CRM ids of the objects the changes associate with. */
  targets: AssociationTargetIds;
}

/**
 * Decides for each upsert: write (update the linked object, or create), wait (a create whose
 * required associations are not synced yet, and nothing else blocks it), or fail (a blocking
 * problem). A link of another generation is archived and the object created again; an archived
 * link is created again. Pure: the applier sends and records what it says.
 */
export function planUpserts(objectType: ObjectType, upserts: readonly MappedChange[], { links, definedProperties, targets }: UpsertContext): UpsertPlan {
  const plan: UpsertPlan = { writes: [], waits: [], fails: [], staleCrmIds: [] };
  for (const change of upserts) {
    const stored = links.get(change.externalObjectId);
    const live = stored?.crmId && !stored.archived ? stored : undefined;
    // The link alone (what is stored with it, its applied revision among them, is not the link's).
    const replaced = live && live.generation !== change.generation ? { crmId: live.crmId, generation: live.generation, archived: true } : undefined;
    if (replaced) plan.staleCrmIds.push(replaced.crmId!);
    const crmId = live && live.generation === change.generation ? live.crmId : null;
    const validated = validateChange(objectType, change, { definedProperties, isCreate: crmId === null });
    const resolved = resolveAssociations(objectType, change, targets, crmId === null);
    const problems = [...change.problems, ...validated.problems, ...resolved.problems];
    const blocking = problems.filter((problem) => problem.blocking);
    if (blocking.length > 0 && resolved.waitingFor.length > 0 && blocking.every((problem) => problem.type === 'INVALID_ASSOCIATION_PROPERTY')) {
      plan.waits.push({ change, problems, waitingFor: resolved.waitingFor });
    } else if (blocking.length > 0) {
      plan.fails.push({ change, problems, ...(replaced ? { link: replaced } : {}) });
    } else {
      const properties = { ...validated.properties };
      if (definedProperties.has(ECOMM_SYNCED_PROPERTY)) properties[ECOMM_SYNCED_PROPERTY] = 'true';
      const associations = { ...resolved.associations };
      // A target the CRM ties by a property of the object (a line item's product) is written as that property.
      for (const { type, crmProperty } of ASSOCIATIONS[objectType] ?? []) {
        const ids = associations[type];
        if (!crmProperty || !ids) continue;
        properties[crmProperty] = String(ids[0]);
        delete associations[type];
      }
      plan.writes.push({
        change,
        crmId,
        properties,
        associations,
        associateLater: resolved.associateLater,
        problems,
        ...(replaced ? { replaces: replaced } : {}),
      });
    }
  }
  return plan;
}
