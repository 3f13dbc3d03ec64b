import type { Tenant } from '@ecomm-sync/contracts';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';

/** Which tenant's object or CRM a console page asks for: from the credential's scope and the page's query. */
export interface AskedTenant {
  portalId?: number;
  /** The application of the tenant (a portal key may read an installed application's objects). */
  appId?: string | null;
}

/**
 * The one tenant a request reads, within the credential's scope: an OAuth token its own tenant, a
 * portal key its portal (direct, or an installed application named by appId), a developer key its
 * application in a portal that has it installed (portalId required; the scope holds only such
 * portals). Outside the scope answers 404, as retry does: saying more would tell that another
 * tenant exists.
 */
export async function tenantOf(scope: ConsoleScope, asked: AskedTenant, accounts: Pick<Repositories['accounts'], 'findInstall'>): Promise<Tenant> {
  const portalId = scope.portalId ?? asked.portalId;
  if (portalId === undefined)
    throw AppError.badRequest('portalId is required with a developer API key: add ?portalId=<a portal that installed the application>');
  if (scope.appId !== undefined) {
    // An integrator: the scope's portal was checked when the credential was read; any other must be installed now.
    if (scope.portalId !== portalId && !(await accounts.findInstall(portalId, scope.appId!)))
      throw AppError.notFound(`Application ${scope.appId} is not installed in portal ${portalId}; pick one of the portals listed under installs`);
    return { portalId, appId: scope.appId };
  }
  const appId = asked.appId ?? null;
  if (appId !== null && !(await accounts.findInstall(portalId, appId))) throw AppError.notFound(`Application ${appId} is not installed in portal ${portalId}`);
  return { portalId, appId };
}
