import { ECOMM_PROPERTY_PREFIX, type ObjectType } from '@ecomm-sync/contracts';
import { SYNC_KEY_PROPERTY } from './sync-key';

export type CrmPropertyType = 'string' | 'number' | 'bool' | 'datetime' | 'enumeration';

/** A property as the CRM's properties API creates it: its group, its field type and, for a bool, its two options. */
export interface CrmPropertyDefinition {
  name: string;
  label: string;
  type: CrmPropertyType;
  fieldType: string;
  groupName: string;
  /** Unique across the objects of one type (used for idempotent creates). */
  hasUniqueValue?: boolean;
  options?: { label: string; value: string }[];
}

/** The property group the service's properties live in, on each object type (created by the install). */
export const ECOMM_PROPERTY_GROUP = { name: 'ecommerce_sync', label: 'Ecommerce sync' } as const;

/** The field type the CRM edits a property of each type with, and the options a bool must have. */
const FIELD_OF: Record<CrmPropertyType, Pick<CrmPropertyDefinition, 'fieldType' | 'options'>> = {
  string: { fieldType: 'text' },
  number: { fieldType: 'number' },
  datetime: { fieldType: 'date' },
  enumeration: { fieldType: 'select', options: [] },
  bool: {
    fieldType: 'booleancheckbox',
    options: [
      { label: 'Yes', value: 'true' },
      { label: 'No', value: 'false' },
    ],
  },
};

/** A property of a type, with the field type and options the CRM wants for it, in a group (the service's by default). */
export const crmProperty = (
  name: string,
  label: string,
  type: CrmPropertyType,
  options: { groupName?: string; hasUniqueValue?: boolean } = {},
): CrmPropertyDefinition => ({
  name,
  label,
  type,
  ...FIELD_OF[type],
  groupName: options.groupName ?? ECOMM_PROPERTY_GROUP.name,
  ...(options.hasUniqueValue ? { hasUniqueValue: true } : {}),
});

const ecomm = (name: string, label: string, type: CrmPropertyType): CrmPropertyDefinition => crmProperty(`${ECOMM_PROPERTY_PREFIX}${name}`, label, type);

const syncKey: CrmPropertyDefinition = crmProperty(SYNC_KEY_PROPERTY, 'Ecommerce sync key', 'string', { hasUniqueValue: true });

/** SPEC.md "Ecommerce properties", plus our sync key (docs/decisions/0004-idempotent-crm-creates.md). */
export const ECOMM_PROPERTIES: Record<ObjectType, CrmPropertyDefinition[]> = {
  CONTACT: [ecomm('ecomm_synced', 'Ecommerce synced', 'bool'), syncKey],
  PRODUCT: [ecomm('ecomm_synced', 'Ecommerce synced', 'bool'), ecomm('image_url', 'Image URL', 'string'), syncKey],
  DEAL: [
    ecomm('ecomm_synced', 'Ecommerce synced', 'bool'),
    ecomm('abandoned_cart_url', 'Abandoned cart URL', 'string'),
    ecomm('discount_amount', 'Discount amount', 'number'),
    ecomm('order_number', 'Order number', 'string'),
    ecomm('shipment_ids', 'Shipment ids', 'string'),
    ecomm('tax_amount', 'Tax amount', 'number'),
    syncKey,
  ],
  LINE_ITEM: [ecomm('ecomm_synced', 'Ecommerce synced', 'bool'), ecomm('discount_amount', 'Discount amount', 'number'), syncKey],
};

export const ECOMM_SYNCED_PROPERTY = `${ECOMM_PROPERTY_PREFIX}ecomm_synced`;

/** The ecommerce pipeline is the portal's deal pipeline of this label; the CRM generates its id. */
export const ECOMM_PIPELINE_LABEL = 'Ecommerce Pipeline';
export const ECOMM_PIPELINE_DISPLAY_ORDER = 99;
/**
 * SPEC's six stages in order. `id` is SPEC's name of the stage, the one senders send and the
 * service uses everywhere; the CRM generates its own stage ids, which the CRM adapter maps to and
 * from these at its edge (pipeline-stages.ts). `metadata` is what the CRM wants of a deal stage: a
 * probability, and `isClosed`, "false" named too: were a customer to close an open stage, a restore
 * that left the key out would not open it again where the CRM merges what it is given.
 */
export const ECOMM_DEAL_STAGES = [
  { id: 'checkout_abandoned', label: 'Checkout Abandoned', displayOrder: 0, metadata: { probability: '0.0', isClosed: 'false' } },
  { id: 'checkout_pending', label: 'Checkout Pending', displayOrder: 1, metadata: { probability: '0.2', isClosed: 'false' } },
  { id: 'checkout_completed', label: 'Checkout Completed', displayOrder: 2, metadata: { probability: '1.0', isClosed: 'true' } },
  { id: 'processed', label: 'Processed', displayOrder: 3, metadata: { probability: '1.0', isClosed: 'true' } },
  { id: 'shipped', label: 'Shipped', displayOrder: 4, metadata: { probability: '1.0', isClosed: 'true' } },
  { id: 'cancelled', label: 'Cancelled', displayOrder: 5, metadata: { probability: '0.0', isClosed: 'true' } },
] as const;
export const ECOMM_STAGE_IDS: ReadonlySet<string> = new Set(ECOMM_DEAL_STAGES.map((stage) => stage.id));

/** The stage a checkout waits in; after ABANDON_AFTER_MS (24 hours) without a later stage it moves to ABANDONED_STAGE. */
export const PENDING_STAGE = 'checkout_pending';
export const ABANDONED_STAGE = 'checkout_abandoned';
