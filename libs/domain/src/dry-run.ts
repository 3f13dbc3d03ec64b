import type { ObjectType, Problem, SyncSettings } from '@ecomm-sync/contracts';
import { resolveAssociations, type AssociationTarget, type AssociationTargetIds } from './association-targets';
import { valuesOutsideOptions, type EnumerationOptions } from './enumeration-options';
import { datesOffMidnight } from './date-properties';
import { numbersNotPlain } from './number-properties';
import { describeFailure } from './error-details';
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
  crm: {
    definedProperties: ReadonlySet<string>;
    linkedCrmId: number | null;
    associationTargets: AssociationTargetIds;
    /** The CRM's enumeration properties: a value outside their options is refused by the CRM (INVALID_OPTION). */
    enumerations?: ReadonlyMap<string, EnumerationOptions>;
    /** The CRM's date properties: a value other than midnight UTC is refused by the CRM (INVALID_DATE). */
    dates?: ReadonlySet<string>;
    /** The CRM's number properties: a value with an exponent, a plus, a space or a comma is refused (INVALID_NUMBER). */
    numbers?: ReadonlySet<string>;
  },
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
  const refusals = crmRefusals(objectType, externalObjectId, operation, validated.properties, crm);
  return {
    operation,
    properties: validated.properties,
    associations: mapped.associations,
    associationTargets: resolved.targets,
    problems: [...mapped.problems, ...validated.problems, ...resolved.problems, ...refusals],
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

/**
 * What the CRM would refuse, whole input and all, that the dry run can see in the property list it
 * read: a value outside an enumeration's options (INVALID_OPTION, recorded as
 * INVALID_ENUM_PROPERTY), a date property's time other than midnight UTC (INVALID_DATE), a number
 * property's value that is not plain digits (INVALID_NUMBER, what a STRING mapping passes as sent).
 * Only the dry run checks them: the applier leaves them to the CRM, whose answer is the last word.
 */
function crmRefusals(
  objectType: ObjectType,
  externalObjectId: string,
  operation: 'CREATE' | 'UPDATE',
  properties: Record<string, string | null>,
  crm: { enumerations?: ReadonlyMap<string, EnumerationOptions>; dates?: ReadonlySet<string>; numbers?: ReadonlySet<string> },
): Problem[] {
  const refused: { type: Problem['type']; name: string; value: string; reason: string }[] = [
    ...valuesOutsideOptions(properties, crm.enumerations ?? new Map()).map(({ name, value, outside }) => ({
      type: 'INVALID_ENUM_PROPERTY' as const,
      name,
      value,
      reason: `"${outside}" is not one of the options of the CRM property ${name}; add the option in the CRM or map another value`,
    })),
    ...datesOffMidnight(properties, crm.dates ?? new Set()).map(({ name, value }) => ({
      type: 'ERROR_INVALID_DATE_PROPERTY' as const,
      name,
      value,
      reason: `the CRM property ${name} is a date (a day, no time) and takes midnight UTC only; map a date-time property, or have the sender send midnight UTC of the day`,
    })),
    ...numbersNotPlain(properties, crm.numbers ?? new Set()).map(({ name, value }) => ({
      type: 'UNKNOWN_ERROR' as const,
      name,
      value,
      reason: `INVALID_NUMBER: the CRM property ${name} is a number and takes digits with an optional leading minus and one point only; map it with the NUMBER data type, or have the sender send such a number`,
    })),
  ];
  return refused.map(({ type, name, value, reason }) => ({
    type,
    blocking: true,
    details: describeFailure(operation, objectType, externalObjectId, reason, { [name]: value }),
  }));
}
