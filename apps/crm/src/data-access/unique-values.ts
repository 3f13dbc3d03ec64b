import { keyOf, ownValue } from '@ecomm-sync/domain';
import { CrmError } from '../domain/crm-error';
import type { CrmType, PropertyDefinition } from '../domain/object-types';
import type { OwnerSeen } from '../domain/unique-claim-state';
import type { CrmObjectDoc, UniqueValueDoc } from './crm-models';

/** A contact's e-mail is unique without case, as in the hosted CRM; other unique values as written. */
const isEmail = (objectType: CrmType, property: string) => objectType === 'contacts' && property === 'email';

/** A unique value as its claim holds it: a contact's e-mail lower-cased, any other as written. */
export const claimedValue = (objectType: CrmType, property: string, value: string) => (isEmail(objectType, property) ? value.toLowerCase() : value);

/** The _id of a unique property's value: the claim that gives the value one owner. */
export const uniqueValueKey = (portalId: number, objectType: CrmType, property: string, value: string) =>
  keyOf(portalId, objectType, property, claimedValue(objectType, property, value));

/** The properties whose values one object at most may hold: those defined with `hasUniqueValue`, and a contact's e-mail. */
export function uniqueProperties(objectType: CrmType, definitions: ReadonlyMap<string, PropertyDefinition>): string[] {
  const names = [...definitions.values()].filter((definition) => definition.hasUniqueValue).map((definition) => definition.name);
  return objectType === 'contacts' && !names.includes('email') ? [...names, 'email'] : names;
}

/** A claim's owner as read by _id (without its history). */
export type OwnerDoc = Pick<CrmObjectDoc, 'portalId' | 'objectType' | 'archived' | 'properties'>;

/** What the claim's owner, as read (undefined: no object has its id), makes of the claim: live in the claim's portal and type, and holding the value. */
export function ownerSeen(claim: UniqueValueDoc, owner: OwnerDoc | undefined): OwnerSeen | undefined {
  if (!owner) return undefined;
  const value = ownValue(owner.properties ?? {}, claim.property);
  return {
    live: owner.portalId === claim.portalId && owner.objectType === claim.objectType && !owner.archived,
    holds: typeof value === 'string' && claimedValue(claim.objectType as CrmType, claim.property, value) === claim.value,
  };
}

/** The refusal of a value another object owns (`owner` null: another input of the same batch), worded as the hosted CRM words it for e-mails. */
export function claimConflict(objectType: CrmType, property: string, value: string, owner: number | null): CrmError {
  if (isEmail(objectType, property)) return CrmError.conflict(`Contact already exists. Existing ID: ${owner ?? 'another input of this batch'}`);
  return CrmError.conflict(
    `${property} "${value.slice(0, 100)}" is already taken by ${owner === null ? 'another input of this batch' : `object ${owner}`}; use batch/upsert to update by it`,
  );
}
