export const OBJECT_TYPES = ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export const ACTIONS = ['UPSERT', 'DELETE'] as const;
export type Action = (typeof ACTIONS)[number];

export const DATA_TYPES = ['STRING', 'NUMBER', 'DATETIME', 'AVATAR_IMAGE'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** SPEC.md "Errors", then the original service's extra types (vendor-api-notes.md). */
export const ERROR_TYPES = [
  'INACTIVE_PORTAL',
  'NO_SYNC_SETTINGS',
  'SETTINGS_NOT_ENABLED',
  'NO_MAPPINGS_DEFINED',
  'MISSING_REQUIRED_PROPERTY',
  'NO_PROPERTIES_DEFINED',
  'INVALID_ASSOCIATION_PROPERTY',
  'INVALID_DEAL_STAGE',
  'INVALID_EMAIL_ADDRESS',
  'UNKNOWN_ERROR',
  'PORTAL_NOT_SYNC_ENABLED',
  'ERROR_INVALID_DATE_PROPERTY',
  'INVALID_ENUM_PROPERTY',
  'EMPTY_MESSAGE',
  'BAD_SETTINGS',
  'MISSING_ASSOCIATED_OBJECT',
  'CREATE_FAIL_NO_INFO',
  'UPDATE_FAIL_NO_INFO',
  'DELETE_FAIL_NO_INFO',
  'NO_DEFINED_PROPERTIES',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ERROR_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** The path segment of each object type in the CRM objects API. */
export const CRM_OBJECT_PATHS: Record<ObjectType, string> = {
  CONTACT: 'contacts',
  DEAL: 'deals',
  PRODUCT: 'products',
  LINE_ITEM: 'line_items',
};

export const ECOMM_PROPERTY_PREFIX = 'ip__ecomm_bridge__';
/** v1 special properties that carry associations, never written to the CRM. */
export const V1_ASSOCIATION_PROPERTIES = {
  CONTACT_IDS: 'hs_assoc__contact_ids',
  DEAL_ID: 'hs_assoc__deal_id',
  PRODUCT_ID: 'hs_assoc__product_id',
} as const;

/** Store that v1 traffic belongs to (vendor-api-notes.md, "Default store"). */
export const DEFAULT_STORE_ID = 'default';
