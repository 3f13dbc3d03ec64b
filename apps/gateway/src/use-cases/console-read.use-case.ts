import type { ConsoleErrorPage, ConsoleOverview, ErrorStatus, ErrorType, ObjectType } from '@ecomm-sync/contracts';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import { errorAdvice, storeOverviews } from '@ecomm-sync/domain';

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
  constructor(private readonly repositories: Pick<Repositories, 'consoleOverview' | 'syncErrors'>) {}

  async overview(scope: ConsoleScope): Promise<ConsoleOverview> {
    const { consoleOverview } = this.repositories;
    const [counts, openErrors, labels] = await Promise.all([
      consoleOverview.objectCounts(scope),
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
        ...errorAdvice(error.type),
      })),
      offset: filter.offset,
      limit: filter.limit,
      hasMore,
    };
  }
}
