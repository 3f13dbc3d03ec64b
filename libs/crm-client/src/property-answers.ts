import type * as properties from '@hubspot/api-client/lib/codegen/crm/properties';
import type { CrmPropertyInfo } from './crm-port';

/** The SDK's Property model as the port's plain value; an enumeration's options keep their label and value (the console's dry run checks values against them). */
export const toCrmProperty = ({ name, label, type, fieldType, groupName, hasUniqueValue, options }: properties.Property): CrmPropertyInfo => ({
  name,
  label,
  type,
  fieldType,
  groupName,
  ...(hasUniqueValue === undefined ? {} : { hasUniqueValue }),
  ...(options?.length ? { options: options.map((option) => ({ label: option.label, value: option.value })) } : {}),
});

/** The port's property as the SDK's PropertyCreate: options get their order, and are shown. */
export const toPropertyCreate = ({ name, label, type, fieldType, groupName, hasUniqueValue, options }: CrmPropertyInfo): properties.PropertyCreate => ({
  name,
  label,
  type: type as properties.PropertyCreateTypeEnum,
  fieldType: fieldType as properties.PropertyCreateFieldTypeEnum,
  groupName,
  ...(hasUniqueValue === undefined ? {} : { hasUniqueValue }),
  ...(options === undefined ? {} : { options: options.map((option, displayOrder) => ({ ...option, displayOrder, hidden: false })) }),
});
