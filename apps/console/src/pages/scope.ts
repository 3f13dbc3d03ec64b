import type { Session } from '../session';

/** The query that ties a page's API reads to the portal or application in its URL. */
export const scopeQuery = (session: Session, params: Record<string, string>): Record<string, string | undefined> =>
  session.role === 'customer' ? { portalId: params.portalId } : {};

export const OBJECT_TYPES = ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'] as const;
export const typeLabel: Record<string, string> = { CONTACT: 'Contacts', DEAL: 'Deals', PRODUCT: 'Products', LINE_ITEM: 'Line items' };

/** The object types as choices of a select: the type, shown by its label. */
export const OBJECT_TYPE_CHOICES = OBJECT_TYPES.map((type) => [type, typeLabel[type]] as const);
