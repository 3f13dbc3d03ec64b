/** The CRM port contract's helpers: unique names, a refusal's status, and properties made when missing. */
import type { ObjectType } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import { crmProperty, ECOMM_PROPERTY_GROUP, type CrmPropertyType } from '@ecomm-sync/domain';

let sequence = 0;
export const unique = (prefix: string) => `${prefix}_${process.pid}_${++sequence}`;

/** The refusal's HTTP status (CrmRequestError.status), or 'resolved'. */
export async function statusOf(promise: Promise<unknown>): Promise<number | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

/** Creates the property unless the portal starts with it (the contract depends on no default set). */
export async function ensureGroup(crm: CrmPort, type: ObjectType): Promise<void> {
  if ((await crm.listPropertyGroups(type)).some((group) => group.name === ECOMM_PROPERTY_GROUP.name)) return;
  await crm.createPropertyGroup(type, ECOMM_PROPERTY_GROUP);
}

export async function ensureProperty(
  crm: CrmPort,
  type: ObjectType,
  name: string,
  propertyType: CrmPropertyType = 'string',
  hasUniqueValue = false,
): Promise<void> {
  if ((await crm.listProperties(type)).some((property) => property.name === name)) return;
  await ensureGroup(crm, type);
  await crm.createProperty(type, { ...crmProperty(name, name, propertyType, { hasUniqueValue }) });
}
