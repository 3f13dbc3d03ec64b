import {
  DEFAULT_STORE_ID,
  type ConsoleImportPage,
  type ImportEnd,
  type ImportEventMessage,
  type ImportView,
  type ObjectType,
  TOPICS,
} from '@ecomm-sync/contracts';
import {
  CAS_LOST,
  COMPARE_AND_SET_RETRY,
  retryCompareAndSet,
  settingsOwner,
  type ImportItem,
  type ImportRecord,
  type ConsoleScope,
  type ImportTypeState,
  type Repositories,
} from '@ecomm-sync/data-access';
import {
  importTransition,
  misplacedAssociations,
  newImportTypes,
  receivedCounts,
  type ImportEffect,
  type ImportEvent,
  type ImportTransition,
} from '@ecomm-sync/domain';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';

/** An application within a portal: who imports. */
export interface ImportTenant {
  portalId: number;
  appId: string;
}

/** Each requested object type's expected count, pages and items received, and end, as the import's views show them. */
function progressOf(types: ImportRecord['types']): ImportView['objectTypes'] {
  const objectTypes: ImportView['objectTypes'] = {};
  for (const [type, state] of Object.entries(types) as [ObjectType, ImportTypeState][]) {
    const received = receivedCounts(state);
    objectTypes[type] = {
      settingsId: state.settingsId,
      expectedCount: state.expectedCount,
      pagesReceived: received.pageCount,
      itemsReceived: received.itemCount,
      ended: state.ended,
    };
  }
  return objectTypes;
}

/** What the import machine decided; a refusal is thrown as the API answers it. */
function decided<S extends ImportRecord>(transition: ImportTransition<S>): { next: S; effects: ImportEffect[] } {
  if ('refused' in transition) throw new AppError(transition.refused.status, transition.refused.message);
  return transition;
}

/**
 * Bulk imports (SPEC.md "Import (v1, application mode)", vendor-api-notes.md for v2): a customer
 * starts one, the import-coordinator has the webhook sent, the application sends pages and an end
 * per object type, and once all four ended the import-coordinator releases the messages. What each
 * request does to an import is the import machine's decision (libs/domain, decision 49).
 */
export class ManageImportsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'imports' | 'accounts' | 'settings' | 'stores' | 'ecommerceInstalls'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    /** Stamps an import's completion, which the import-coordinators' check compares with the database server's clock (default: `clock`). */
    private readonly sharedClock: () => number = clock,
  ) {}

  async start(tenant: ImportTenant, storeId: string, version: 'v1' | 'v2'): Promise<{ importStartedAt: number; status: string }> {
    if (!(await this.repositories.accounts.findInstall(tenant.portalId, tenant.appId))) {
      throw AppError.notFound(`Application ${tenant.appId} is not installed in portal ${tenant.portalId}`);
    }
    // The address alone: a v1 DELETE of the settings keeps it (v1's import settings are a resource of their own).
    const webhookUri = await this.repositories.settings.webhookUriOf(settingsOwner(tenant));
    if (!webhookUri) {
      throw AppError.conflict(
        `Application ${tenant.appId} has no import address: set importTriggerUri (PUT /extensions/ecomm/v1/import-settings) or webhookUri (v2 settings)`,
      );
    }
    if (version === 'v2' && !(await this.repositories.stores.find(tenant, storeId))) {
      throw AppError.notFound(`No store "${storeId}"; define it with PUT /extensions/ecomm/v2/stores`);
    }
    const types = newImportTypes();
    let created: ImportRecord | null = null;
    for (let nudge = 0; !created && nudge < 5; nudge++) {
      const now = this.clock();
      created = await this.repositories.imports.create({
        tenant,
        storeId,
        importStartedAt: now + nudge,
        version,
        status: 'initialized',
        webhookUri,
        types,
        createdAt: now,
      });
    }
    if (!created) throw AppError.conflict('Another import of this store started at the same instant; try again');
    try {
      await this.broker.publish(TOPICS.importStarted, { kind: 'import-started', importId: created.importId } satisfies ImportEventMessage);
    } catch (error) {
      await this.apply(tenant, storeId, created.importStartedAt, { kind: 'failed', reason: 'the import could not be queued', at: this.clock() });
      this.logger.error('publishing an import start failed', { error: String(error) });
      throw AppError.unavailable('The import could not be queued; start it again');
    }
    this.logger.info('import started', { ...tenant, storeId, importStartedAt: created.importStartedAt });
    return { importStartedAt: created.importStartedAt, status: created.status };
  }

  /**
   * The import after an install (importOnInstall): once per install that installed the tenant, taken
   * by one caller (an install sent again or at once starts nothing more). One that could not start
   * (no import address yet) is given back: the install sent again tries it.
   */
  async startOnInstall(tenant: ImportTenant): Promise<void> {
    if (!(await this.repositories.ecommerceInstalls.takeImportOnInstall(tenant))) return;
    try {
      if (!(await this.repositories.settings.getByOwner(settingsOwner(tenant)))?.importOnInstall) return;
      await this.start(tenant, DEFAULT_STORE_ID, 'v1');
    } catch (error) {
      await this.repositories.ecommerceInstalls.giveBackImportOnInstall(tenant);
      this.logger.warn('the import on install did not start; the install sent again tries it', { ...tenant, error: String(error) });
    }
  }

  async view(tenant: ImportTenant, storeId: string, importStartedAt: number): Promise<ImportView> {
    const found = await this.find(tenant, storeId, importStartedAt);
    const objectTypes = progressOf(found.types);
    const attempts = (await this.repositories.imports.attemptsOf(found.importId)).map(({ attempt, at, status, error, durationMs }) => ({
      attempt,
      at,
      status,
      error,
      durationMs,
    }));
    return {
      importStartedAt: found.importStartedAt,
      storeId: found.storeId,
      status: found.status,
      failureReason: found.failureReason,
      completedAt: found.completedAt,
      releasedAt: found.releasedAt,
      releaseProblem: found.releasedAt === null ? found.releaseProblem : null,
      objectTypes,
      webhook: { uri: found.webhookUri, attempts, problem: found.webhookProblem },
    };
  }

  /** The console's list of imports within a scope (every import of a portal, or one application's), newest first. */
  async list(scope: ConsoleScope, page: { offset: number; limit: number }): Promise<ConsoleImportPage> {
    const { imports, hasMore } = await this.repositories.imports.list(scope, page);
    const results = imports.map((found) => {
      const objectTypes = progressOf(found.types);
      const types = Object.values(objectTypes);
      const { importStartedAt, storeId, status, failureReason, completedAt, releasedAt } = found;
      return {
        ...found.tenant,
        importStartedAt,
        storeId,
        status,
        failureReason,
        completedAt,
        releasedAt,
        releaseProblem: releasedAt === null ? found.releaseProblem : null,
        objectTypes,
        itemsReceived: types.reduce((sum, type) => sum + type.itemsReceived, 0),
        expectedCount: types.every((type) => type.expectedCount !== null) ? types.reduce((sum, type) => sum + type.expectedCount!, 0) : null,
      };
    });
    return { results, ...page, hasMore };
  }

  /** The page is stored first, then counted: a page counted is always there to release. */
  async putPage(
    tenant: ImportTenant,
    storeId: string,
    importStartedAt: number,
    objectType: ObjectType,
    pageNumber: number,
    items: ImportItem[],
  ): Promise<void> {
    const misplaced = misplacedAssociations(objectType, items);
    if (misplaced) throw AppError.badRequest(misplaced);
    const event: ImportEvent = { kind: 'page-received', objectType, pageNumber, itemCount: items.length };
    const found = await this.find(tenant, storeId, importStartedAt);
    decided(importTransition(found, event)); // refused before anything is stored
    await this.repositories.imports.putPage(found.importId, objectType, pageNumber, items);
    await this.apply(tenant, storeId, importStartedAt, event);
  }

  async getPage(tenant: ImportTenant, storeId: string, importStartedAt: number, objectType: ObjectType, pageNumber: number): Promise<ImportItem[]> {
    const found = await this.find(tenant, storeId, importStartedAt);
    const page = await this.repositories.imports.getPage(found.importId, objectType, pageNumber);
    if (!page) throw AppError.notFound(`No page ${pageNumber} of ${objectType} in import ${importStartedAt}`);
    return page;
  }

  /** 400 with both counts when they differ (the object type stays open); 204 when they match. */
  async end(tenant: ImportTenant, storeId: string, importStartedAt: number, objectType: ObjectType, sent: ImportEnd): Promise<void> {
    const event: ImportEvent = { kind: 'end-received', objectType, pageCount: sent.pageCount, itemCount: sent.itemCount, at: this.sharedClock() };
    const { record, effects } = await this.apply(tenant, storeId, importStartedAt, event);
    if (effects.some((effect) => effect.kind === 'release')) {
      this.logger.info('import complete', { ...tenant, storeId, importStartedAt });
      // If this publish is lost, the import-coordinator's periodic check releases the import.
      await this.broker
        .publish(TOPICS.importCompleted, { kind: 'import-completed', importId: record.importId } satisfies ImportEventMessage)
        .catch((error) => this.logger.warn('publishing an import completion failed; the periodic check will release it', { error: String(error) }));
    }
  }

  private async find(tenant: ImportTenant, storeId: string, importStartedAt: number): Promise<ImportRecord> {
    const found = await this.repositories.imports.find(tenant, storeId, importStartedAt);
    if (!found) throw AppError.notFound(`No import started at ${importStartedAt} in store "${storeId}" of this application; start one with POST .../imports`);
    return found;
  }

  /**
   * One event on one import: read it, let the import machine decide, write by compare-and-set. A
   * write that lost to another replica's is decided again on a fresh read, a bounded number of times.
   */
  private async apply(tenant: ImportTenant, storeId: string, importStartedAt: number, event: ImportEvent) {
    const outcome = await retryCompareAndSet(async () => {
      const found = await this.find(tenant, storeId, importStartedAt);
      const { next, effects } = decided(importTransition(found, event));
      if (next === found || (await this.repositories.imports.compareAndSet(found.importId, found.rev, next))) return { record: next, effects };
      return CAS_LOST;
    });
    if (outcome === CAS_LOST) {
      throw AppError.unavailable(
        `Import ${importStartedAt} was changed by other requests each of the ${COMPARE_AND_SET_RETRY.rounds} times this one tried; send it again`,
      );
    }
    return outcome;
  }
}
