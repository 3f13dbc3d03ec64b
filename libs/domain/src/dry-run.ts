import type { ObjectType, Problem, SyncSettings } from '@ecomm-sync/contracts';
import { mapObject } from './map-object';
import type { RawObjectState } from './object-state';
import { validateChange } from './validate-change';

export interface DryRunOutcome {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  properties: Record<string, string | null>;
  associations: Partial<Record<ObjectType, string[]>>;
  problems: Problem[];
}

/**
 * What the mapper and the applier would make of an object with these settings, without writing:
 * the mapping (mapObject) and the checks against the portal's CRM (validateChange), in the order
 * the services run them. Association targets are not looked up (they depend on other objects).
 */
export function dryRunObject(
  objectType: ObjectType,
  externalObjectId: string,
  state: RawObjectState,
  settings: SyncSettings,
  crm: { definedProperties: ReadonlySet<string>; linkedCrmId: number | null },
): DryRunOutcome {
  const mapped = mapObject(objectType, externalObjectId, state, { ...settings, rev: 0 });
  if (mapped.action === 'DELETE') return { operation: 'DELETE', properties: {}, associations: {}, problems: mapped.problems };
  const isCreate = crm.linkedCrmId === null;
  const blocked = mapped.problems.some((problem) => problem.blocking);
  const validated = blocked
    ? { properties: {}, problems: [] }
    : validateChange(
        objectType,
        { externalObjectId, properties: mapped.properties, associations: mapped.associations },
        { definedProperties: crm.definedProperties, isCreate },
      );
  return {
    operation: isCreate ? 'CREATE' : 'UPDATE',
    properties: validated.properties,
    associations: mapped.associations,
    problems: [...mapped.problems, ...validated.problems],
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
