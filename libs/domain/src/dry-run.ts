import type { ObjectType, Problem, SyncSettings } from '@ecomm-sync/contracts';
import { resolveAssociations, type AssociationTarget, type AssociationTargetIds } from './association-targets';
import { mapObject } from './map-object';
import type { RawObjectState } from './object-state';
import { validateChange } from './validate-change';

export interface DryRunOutcome {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  properties: Record<string, string | null>;
  associations: Partial<Record<ObjectType, string[]>>;
  /** What each association would do, from the stored links (empty when the object is not written). */
  associationTargets: AssociationTarget[];
  problems: Problem[];
}

/**
 * What the mapper and the applier would make of an object with these settings, without writing:
 * the mapping (mapObject), the checks against the portal's CRM (validateChange) and the
 * associations against the stored links (resolveAssociations), in the order the services run them.
 */
export function dryRunObject(
  objectType: ObjectType,
  externalObjectId: string,
  state: RawObjectState,
  settings: SyncSettings,
  crm: { definedProperties: ReadonlySet<string>; linkedCrmId: number | null; associationTargets: AssociationTargetIds },
): DryRunOutcome {
  const mapped = mapObject(objectType, externalObjectId, state, { ...settings, rev: 0 });
  if (mapped.action === 'DELETE') return { operation: 'DELETE', properties: {}, associations: {}, associationTargets: [], problems: mapped.problems };
  const isCreate = crm.linkedCrmId === null;
  const operation = isCreate ? 'CREATE' : 'UPDATE';
  if (mapped.problems.some((problem) => problem.blocking))
    return { operation, properties: {}, associations: mapped.associations, associationTargets: [], problems: mapped.problems };
  const change = { externalObjectId, properties: mapped.properties, associations: mapped.associations };
  const validated = validateChange(objectType, change, { definedProperties: crm.definedProperties, isCreate });
  const resolved = resolveAssociations(objectType, change, crm.associationTargets, isCreate);
  return {
    operation,
    properties: validated.properties,
    associations: mapped.associations,
    associationTargets: resolved.targets,
    problems: [...mapped.problems, ...validated.problems, ...resolved.problems],
  };
}

export type InspectedStatus = 'applied' | 'failed' | 'waiting' | 'archived' | 'not-processed' | 'unknown';

/** One word for an object's sync status, from what is stored about it (the inspector's headline); waiting wins over its open error. */
export function inspectedStatus(facts: {
  received: boolean;
  processed: boolean;
  crmId: number | null;
  archived: boolean;
  openErrors: number;
  waiting: boolean;
}): InspectedStatus {
  if (!facts.received) return 'unknown';
  if (facts.waiting) return 'waiting';
  if (facts.openErrors > 0) return 'failed';
  if (!facts.processed) return 'not-processed';
  if (facts.crmId !== null && facts.archived) return 'archived';
  if (facts.crmId !== null) return 'applied';
  return 'not-processed';
}
