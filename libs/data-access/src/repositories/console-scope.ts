/**
 * Whose data a console page reads: one portal (every tenant of it when `appId` is undefined), one
 * tenant, or one application across the portals that have it installed now (`portalIds`; a portal
 * that uninstalled the application keeps its data but is no longer the integrator's to read).
 */
export interface ConsoleScope {
  portalId?: number;
  /** An application-wide read: only these portals (the application's current installs). */
  portalIds?: readonly number[];
  appId?: string | null;
}

type Owned = { portalId: number; appId?: string | null };

function checked(scope: ConsoleScope): ConsoleScope {
  if (scope.portalId === undefined && !scope.appId) throw new Error('a console read needs a portal or an application');
  if (scope.portalId === undefined && scope.portalIds === undefined) throw new Error('an application-wide console read needs the portals it may read');
  return scope;
}

/** The MongoDB filter of a scope: its leading fields are those the collections' indexes start with. */
export function consoleScopeFilter(scope: ConsoleScope): Record<string, unknown> {
  const { portalId, portalIds, appId } = checked(scope);
  return {
    ...(portalId !== undefined ? { portalId } : { portalId: { $in: [...portalIds!] } }),
    ...(appId !== undefined ? { appId } : {}),
  };
}

/** The same rule as a predicate, for the repositories' fakes. */
export function inConsoleScope(scope: ConsoleScope): (owned: Owned) => boolean {
  const { portalId, portalIds, appId } = checked(scope);
  return (owned) =>
    (portalId !== undefined ? owned.portalId === portalId : portalIds!.includes(owned.portalId)) && (appId === undefined || (owned.appId ?? null) === appId);
}
