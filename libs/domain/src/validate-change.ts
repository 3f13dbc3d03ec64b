import { type MappedChange, type ObjectType, type Problem, V1_ASSOCIATION_PROPERTIES } from '@ecomm-sync/contracts';
import { ECOMM_STAGE_IDS } from './ecommerce-setup';
import { describeFailure } from './error-details';
import { setOwn } from './own-record';

export interface CrmContext {
  /** Property names the portal's CRM defines for this object type. */
  definedProperties: ReadonlySet<string>;
  /** Whether this change will create a CRM object (no link to an existing one). */
  isCreate: boolean;
}

// Practical address check: one @, a non-empty local part, a dotted domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const isValidEmail = (value: string): boolean => value.length <= 254 && EMAIL.test(value);

const REQUIRED_ASSOCIATIONS: Partial<Record<ObjectType, { type: ObjectType; property: string }[]>> = {
  LINE_ITEM: [
    { type: 'DEAL', property: V1_ASSOCIATION_PROPERTIES.DEAL_ID },
    { type: 'PRODUCT', property: V1_ASSOCIATION_PROPERTIES.PRODUCT_ID },
  ],
};

const REQUIRED_PROPERTIES: Partial<Record<ObjectType, string>> = { CONTACT: 'email', DEAL: 'dealstage' };

/**
 * Checks a mapped upsert against the portal's CRM setup (SPEC.md "Required properties", "Errors").
 * Returns the properties that can be written and the problems found; a blocking problem means
 * the object must not be written at all.
 */
export function validateChange(
  objectType: ObjectType,
  change: Pick<MappedChange, 'externalObjectId' | 'properties' | 'associations'> & { problems?: readonly Problem[] },
  context: CrmContext,
): { properties: Record<string, string | null>; problems: Problem[] } {
  const operation = context.isCreate ? 'CREATE' : 'UPDATE';
  const problems: Problem[] = [];
  const fail = (type: Problem['type'], reason: string, values: Record<string, string | null | undefined>, blocking = true) =>
    problems.push({ type, blocking, details: describeFailure(operation, objectType, change.externalObjectId, reason, values) });

  const properties: Record<string, string | null> = {};
  const undefinedNames: string[] = [];
  for (const [name, value] of Object.entries(change.properties)) {
    if (context.definedProperties.has(name)) setOwn(properties, name, value);
    else undefinedNames.push(name);
  }
  if (undefinedNames.length > 0) {
    fail(
      'NO_PROPERTIES_DEFINED',
      `the portal's CRM defines no property ${undefinedNames.join(', ')}; create it in the CRM or change the mapping`,
      Object.fromEntries(undefinedNames.map((name) => [name, change.properties[name]])),
      false,
    );
  }

  const required = REQUIRED_PROPERTIES[objectType];
  if (required && context.isCreate && (properties[required] ?? '') === '') {
    fail('MISSING_REQUIRED_PROPERTY', `${required} is required to create a ${objectType}`, { [required]: properties[required] });
  }
  // An update that clears a required property would leave a contact without its e-mail or a deal
  // outside the pipeline (the CRM clears on ""): the rest is written, the CRM keeps that value, and
  // the error says so. The merged state keeps the clear, so a later update must not fail for it.
  for (const [type, name] of [
    ['INVALID_EMAIL_ADDRESS', 'email'],
    ['INVALID_DEAL_STAGE', 'dealstage'],
  ] as const) {
    if (REQUIRED_PROPERTIES[objectType] === name && !context.isCreate && Object.hasOwn(properties, name) && (properties[name] ?? '') === '') {
      delete properties[name];
      fail(type, `the ${name} of a ${objectType} cannot be cleared; the CRM keeps its value`, { [name]: change.properties[name] }, false);
    }
  }
  const email = properties.email;
  if (objectType === 'CONTACT' && email && !isValidEmail(email)) {
    fail('INVALID_EMAIL_ADDRESS', 'email is not a valid e-mail address', { email });
  }
  const stage = properties.dealstage;
  if (objectType === 'DEAL' && stage && !ECOMM_STAGE_IDS.has(stage)) {
    fail('INVALID_DEAL_STAGE', `dealstage must be a stage of the ecommerce pipeline (${[...ECOMM_STAGE_IDS].join(', ')})`, {
      dealstage: stage,
    });
  }
  if (context.isCreate) {
    for (const { type, property } of REQUIRED_ASSOCIATIONS[objectType] ?? []) {
      const ids = change.associations[type] ?? [];
      if (ids.length > 0) continue;
      // Sent, but no id a message could carry (the mapper's non-blocking INVALID_ASSOCIATION_PROPERTY
      // names it): not missing; that same problem blocks the create.
      const unusable = change.problems?.find((problem) => problem.type === 'INVALID_ASSOCIATION_PROPERTY' && problem.details.includes(`[${property}: `));
      if (unusable) problems.push({ ...unusable, blocking: true });
      else fail('MISSING_REQUIRED_PROPERTY', `a ${objectType} needs an associated ${type} to be created`, { [property]: undefined });
    }
  }
  return { properties, problems };
}
