import type { ErrorType } from '@ecomm-sync/contracts';
import type { Session } from '../session';

/** The query that ties a page's API reads to the portal or application in its URL. */
export const scopeQuery = (session: Session, params: Record<string, string>): Record<string, string | undefined> =>
  session.role === 'customer' ? { portalId: params.portalId } : {};

/**
 * The query of a page that reads one tenant at a time: a customer's portal from the URL; for an
 * integrator, its application in the portal it picked (`?portalId=`, InstallPicker).
 */
export const tenantQuery = (session: Session, params: Record<string, string>, pickedPortalId: string): Record<string, string | undefined> => ({
  ...scopeQuery(session, params),
  ...(session.role === 'integrator' && pickedPortalId ? { portalId: pickedPortalId } : {}),
});

export const OBJECT_TYPES = ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'] as const;
export const typeLabel: Record<string, string> = { CONTACT: 'Contacts', DEAL: 'Deals', PRODUCT: 'Products', LINE_ITEM: 'Line items' };

/** The object types as choices of a select: the type, shown by its label. */
export const OBJECT_TYPE_CHOICES = OBJECT_TYPES.map((type) => [type, typeLabel[type]] as const);

/**
 * The error types a filter or an alert rule offers, the API's own list (scope.spec.ts holds them to
 * libs/contracts; only its types are imported here, so the bundle does not carry the library).
 */
export const ERROR_TYPES: readonly ErrorType[] = [
  'INVALID_EMAIL_ADDRESS',
  'MISSING_REQUIRED_PROPERTY',
  'INVALID_DEAL_STAGE',
  'INVALID_ASSOCIATION_PROPERTY',
  'INVALID_ENUM_PROPERTY',
  'ERROR_INVALID_DATE_PROPERTY',
  'MISSING_ASSOCIATED_OBJECT',
  'NO_PROPERTIES_DEFINED',
  'NO_DEFINED_PROPERTIES',
  'NO_MAPPINGS_DEFINED',
  'NO_SYNC_SETTINGS',
  'SETTINGS_NOT_ENABLED',
  'BAD_SETTINGS',
  'PORTAL_NOT_SYNC_ENABLED',
  'INACTIVE_PORTAL',
  'EMPTY_MESSAGE',
  'CREATE_FAIL_NO_INFO',
  'UPDATE_FAIL_NO_INFO',
  'DELETE_FAIL_NO_INFO',
  'UNKNOWN_ERROR',
];
