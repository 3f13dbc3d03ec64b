import type { ConsoleErrorPage, ConsoleInstalls, ConsoleOverview, ErrorStatus, ErrorType, ObjectType } from '@ecomm-sync/contracts';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import { errorAdvice, waitsForSetAside, storeOverviews } from '@ecomm-sync/domain';

export interface ConsoleErrorFilter {
  storeId?: string;
  objectType?: ObjectType;
  errorType?: ErrorType;
  /** undefined: open and resolved. */
  status?: ErrorStatus;
  offset: number;
  limit: number;
}

/** What the console's overview and errors pages read, within the signed-in credential's scope. */
export class ConsoleReadUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'consoleOverview' | 'syncErrors' | 'accounts'>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The installs within the scope: an integrator's application in every portal (the portals it may
   * pick), a portal's installed applications (the ones it may import for), an OAuth token its own.
   */
  async installs(scope: ConsoleScope): Promise<ConsoleInstalls> {
    const installs = await this.repositories.accounts.listInstalls({
      ...(scope.portalId !== undefined ? { portalId: scope.portalId } : {}),
      ...(typeof scope.appId === 'string' ? { appId: scope.appId } : {}),
    });
    const names = new Map<string, string>();
    for (const appId of new Set(installs.map((install) => install.appId)))
      names.set(appId, (await this.repositories.accounts.findApplication(appId))?.name ?? appId);
    return { results: installs.map((install) => ({ ...install, appName: names.get(install.appId)! })) };
  }

  async overview(scope: ConsoleScope): Promise<ConsoleOverview> {
    const { consoleOverview } = this.repositories;
    const [counts, openErrors, labels] = await Promise.all([
      consoleOverview.objectCounts(scope, this.clock()),
      consoleOverview.openErrorsByType(scope),
      consoleOverview.storeLabels(scope),
    ]);
    return { stores: storeOverviews(counts, openErrors, labels) };
  }

  async errors(scope: ConsoleScope, filter: ConsoleErrorFilter): Promise<ConsoleErrorPage> {
    const { errors, hasMore } = await this.repositories.syncErrors.list({ ...scope, ...filter, includeResolved: filter.status !== 'OPEN' });
    return {
      results: errors.map((error) => ({
        portalId: error.portalId,
        appId: error.appId ?? null,
        storeId: error.storeId,
        objectType: error.objectType,
        externalObjectId: error.externalObjectId,
        changedAt: error.changedAt,
        erroredAt: error.erroredAt,
        type: error.type,
        details: error.details,
        status: error.status,
        ...errorAdvice(error.type, { setAside: waitsForSetAside(error) }),
        ...(waitsForSetAside(error) ? { setAside: true } : {}),
        ...(error.crm ? { crm: error.crm } : {}),
      })),
      offset: filter.offset,
      limit: filter.limit,
      hasMore,
    };
  }
}
