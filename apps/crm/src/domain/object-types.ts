/** Object types of the objects API, by their path name. */
export const CRM_TYPES = ['contacts', 'deals', 'products', 'line_items'] as const;
export type CrmType = (typeof CRM_TYPES)[number];

export const isCrmType = (value: string): value is CrmType => (CRM_TYPES as readonly string[]).includes(value);

/** Associations a line item has exactly one of: a new one replaces the old. */
export const SINGLE_ASSOCIATIONS: ReadonlySet<string> = new Set(['line_items->deals', 'line_items->products']);

/** The hosted CRM's default (HUBSPOT_DEFINED) association type ids, by direction. */
export const DEFAULT_ASSOCIATION_TYPES: Readonly<Record<string, number>> = {
  'contacts->deals': 4,
  'deals->contacts': 3,
  'line_items->deals': 20,
  'deals->line_items': 19,
};

export const PROPERTY_TYPES = ['string', 'number', 'date', 'datetime', 'enumeration', 'bool'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** How the hosted CRM's UI edits a property (its `fieldType`). */
export const FIELD_TYPES = [
  'textarea',
  'text',
  'date',
  'file',
  'number',
  'select',
  'radio',
  'checkbox',
  'booleancheckbox',
  'calculation_equation',
  'phonenumber',
  'html',
] as const;

export interface PropertyOption {
  label: string;
  value: string;
  displayOrder: number;
  hidden: boolean;
}

export interface PropertyDefinition {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: string;
  groupName: string;
  hasUniqueValue: boolean;
  options: PropertyOption[];
}

/** The group every object type starts with, as in the hosted CRM. */
export const DEFAULT_GROUPS: Record<CrmType, { name: string; label: string }> = {
  contacts: { name: 'contactinformation', label: 'Contact information' },
  deals: { name: 'dealinformation', label: 'Deal information' },
  products: { name: 'productinformation', label: 'Product information' },
  line_items: { name: 'lineiteminformation', label: 'Line item information' },
};

const FIELD_OF: Record<PropertyType, string> = {
  string: 'text',
  number: 'number',
  date: 'date',
  datetime: 'date',
  enumeration: 'select',
  bool: 'booleancheckbox',
};

/** A definition stored before properties had groups and field types gets the defaults of its type. */
export const withDefaults = (
  objectType: CrmType,
  stored: Partial<PropertyDefinition> & Pick<PropertyDefinition, 'name' | 'label' | 'type'>,
): PropertyDefinition => ({
  name: stored.name,
  label: stored.label,
  type: stored.type,
  fieldType: stored.fieldType ?? FIELD_OF[stored.type],
  groupName: stored.groupName ?? DEFAULT_GROUPS[objectType].name,
  hasUniqueValue: !!stored.hasUniqueValue,
  options: stored.options ?? [],
});

const def = (name: string, label: string, type: PropertyType = 'string'): Pick<PropertyDefinition, 'name' | 'label' | 'type'> => ({ name, label, type });

/** The properties a new portal starts with. */
export const DEFAULT_PROPERTIES: Record<CrmType, Pick<PropertyDefinition, 'name' | 'label' | 'type'>[]> = {
  contacts: [
    def('email', 'Email'),
    def('firstname', 'First name'),
    def('lastname', 'Last name'),
    def('phone', 'Phone number'),
    def('mobilephone', 'Mobile phone number'),
    def('company', 'Company name'),
    def('website', 'Website URL'),
    def('address', 'Street address'),
    def('city', 'City'),
    def('state', 'State/Region'),
    def('zip', 'Postal code'),
    def('country', 'Country/Region'),
  ],
  deals: [
    def('dealname', 'Deal name'),
    def('amount', 'Amount', 'number'),
    def('dealstage', 'Deal stage', 'enumeration'),
    def('pipeline', 'Pipeline', 'enumeration'),
    def('closedate', 'Close date', 'datetime'),
    def('description', 'Deal description'),
  ],
  products: [def('name', 'Name'), def('description', 'Description'), def('price', 'Unit price', 'number'), def('hs_sku', 'SKU')],
  line_items: [
    def('name', 'Name'),
    def('quantity', 'Quantity', 'number'),
    def('price', 'Unit price', 'number'),
    def('amount', 'Net price', 'number'),
    def('discount', 'Unit discount', 'number'),
    def('tax', 'Tax', 'number'),
    // The product a line item is made from, by its CRM id: the hosted CRM ties the two by it.
    def('hs_product_id', 'Product ID', 'number'),
  ],
};

export const DEFAULT_PIPELINE = {
  id: 'default',
  label: 'Sales Pipeline',
  displayOrder: 0,
  stages: [
    { id: 'appointmentscheduled', label: 'Appointment Scheduled', displayOrder: 0 },
    { id: 'qualifiedtobuy', label: 'Qualified To Buy', displayOrder: 1 },
    { id: 'closedwon', label: 'Closed Won', displayOrder: 2 },
    { id: 'closedlost', label: 'Closed Lost', displayOrder: 3 },
  ],
};
