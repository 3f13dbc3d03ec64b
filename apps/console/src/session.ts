import type { ConsoleSession } from '@ecomm-sync/contracts';

/** How the credential travels: as the existing endpoints expect it (SPEC.md "Authentication"). */
export type CredentialKind = 'portal-key' | 'oauth-token' | 'developer-key' | 'admin-token';

export interface Session extends ConsoleSession {
  kind: CredentialKind;
  /** Kept in sessionStorage only (gone when the tab closes), sent with each request, never rendered. */
  secret: string;
}

const KEY = 'ecomm-sync.console.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export const saveSession = (session: Session) => sessionStorage.setItem(KEY, JSON.stringify(session));
export const clearSession = () => sessionStorage.removeItem(KEY);

/** Where a role starts. */
export function homeOf(session: Session): string {
  if (session.role === 'operator') return '/console/operations';
  if (session.role === 'integrator') return `/console/apps/${encodeURIComponent(session.appId ?? '')}/overview`;
  return `/console/portals/${session.portalId}/overview`;
}
