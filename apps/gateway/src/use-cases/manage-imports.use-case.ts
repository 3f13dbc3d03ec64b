import type { ImportEnd, ImportEventMessage, ImportView, ObjectType } from '@ecomm-sync/contracts';
import { DEFAULT_STORE_ID, IMPORT_SETTINGS_IDS, OBJECT_TYPES, TOPICS } from '@ecomm-sync/contracts';
import { settingsOwner, type ImportItem, type ImportRecord, type ImportTypeState, type Repositories } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/http';
import type { Logger } from '@ecomm-sync/logger';
import type { Broker } from '@ecomm-sync/messaging';

/** An application within a portal: who imports. */
export interface ImportTenant {
  portalId: number;
  appId: string;
}

/**
 * Bulk imports (SPEC.md "Import (v1, application mode)", vendor-api-notes.md for v2): a customer
 * starts one, the import-coordinator has the webhook sent, the application sends pages and an end
 * per object type, and once all four ended the import-coordinator releases the messages.
 */
export class ManageImportsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'imports' | 'accounts' | 'settings' | 'stores'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async start(tenant: ImportTenant, storeId: string, version: 'v1' | 'v2'): Promise<{ importStartedAt: number; status: string }> {
    if (!(await this.repositories.accounts.findInstall(tenant.portalId, tenant.appId))) {
      throw AppError.notFound(`Application ${tenant.appId} is not installed in portal ${tenant.portalId}`);
    }
    const settings = await this.repositories.settings.getByOwner(settingsOwner(tenant));
    if (!settings?.webhookUri) {
      throw AppError.conflict(
        `Application ${tenant.appId} has no import address: set importTriggerUri (PUT /extensions/ecomm/v1/import-settings) or webhookUri (v2 settings)`,
      );
    }
    if (version === 'v2' && !(await this.repositories.stores.find(tenant, storeId))) {
      throw AppError.notFound(`No store "${storeId}"; define it with PUT /extensions/ecomm/v2/stores`);
    }
    const types = Object.fromEntries(
      OBJECT_TYPES.map((type): [ObjectType, ImportTypeState] => [
        type,
        { settingsId: IMPORT_SETTINGS_IDS[type], expectedCount: null, ended: false, pageCount: null, itemCount: null },
      ]),
    );
    let created: ImportRecord | null = null;
    for (let nudge = 0; !created && nudge < 5; nudge++) {
      const now = this.clock();
      created = await this.repositories.imports.create({
        tenant,
        storeId,
        importStartedAt: now + nudge,
        version,
        status: 'initialized',
        webhookUri: settings.webhookUri,
        types,
        createdAt: now,
      });
    }
    if (!created) throw AppError.conflict('Another import of this store started at the same instant; try again');
    try {
      await this.broker.publish(TOPICS.importStarted, { kind: 'import-started', importId: created.importId } satisfies ImportEventMessage);
    } catch (error) {
      await this.repositories.imports.fail(created.importId, 'the import could not be queued');
      this.logger.error('publishing an import start failed', { error: String(error) });
      throw AppError.unavailable('The import could not be queued; start it again');
    }
    this.logger.info('import started', { ...tenant, storeId, importStartedAt: created.importStartedAt });
    return { importStartedAt: created.importStartedAt, status: created.status };
  }

  /** importOnInstall: an application's install starts an import of its store `default`; a failure to start is logged. */
  async startOnInstall(tenant: ImportTenant): Promise<void> {
    if (!(await this.repositories.settings.getByOwner(settingsOwner(tenant)))?.importOnInstall) return;
    await this.start(tenant, DEFAULT_STORE_ID, 'v1').catch((error) =>
      this.logger.warn('the import on install did not start', { ...tenant, error: String(error) }),
    );
  }

  async view(tenant: ImportTenant, storeId: string, importStartedAt: number): Promise<ImportView> {
    const found = await this.find(tenant, storeId, importStartedAt);
    const objectTypes: ImportView['objectTypes'] = {};
    for (const [type, state] of Object.entries(found.types) as [ObjectType, ImportTypeState][]) {
      const received = await this.repositories.imports.received(found.importId, type);
      objectTypes[type] = {
        settingsId: state.settingsId,
        expectedCount: state.expectedCount,
        pagesReceived: received.pageCount,
        itemsReceived: received.itemCount,
        ended: state.ended,
      };
    }
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
      objectTypes,
      webhook: { uri: found.webhookUri, attempts },
    };
  }

  async putPage(
    tenant: ImportTenant,
    storeId: string,
    importStartedAt: number,
    objectType: ObjectType,
    pageNumber: number,
    items: ImportItem[],
  ): Promise<void> {
    const found = await this.open(tenant, storeId, importStartedAt, objectType);
    await this.repositories.imports.putPage(found.importId, objectType, pageNumber, items);
  }

  async getPage(tenant: ImportTenant, storeId: string, importStartedAt: number, objectType: ObjectType, pageNumber: number): Promise<ImportItem[]> {
    const found = await this.find(tenant, storeId, importStartedAt);
    const page = await this.repositories.imports.getPage(found.importId, objectType, pageNumber);
    if (!page) throw AppError.notFound(`No page ${pageNumber} of ${objectType} in import ${importStartedAt}`);
    return page;
  }

  /** 400 with both counts when they differ (the object type stays open); 204 when they match. */
  async end(tenant: ImportTenant, storeId: string, importStartedAt: number, objectType: ObjectType, sent: ImportEnd): Promise<void> {
    const found = await this.open(tenant, storeId, importStartedAt, objectType);
    const received = await this.repositories.imports.received(found.importId, objectType);
    if (received.pageCount !== sent.pageCount || received.itemCount !== sent.itemCount) {
      throw AppError.badRequest(
        `Counts of ${objectType} do not match: the end says ${sent.pageCount} pages and ${sent.itemCount} items, the service received ${received.pageCount} pages and ${received.itemCount} items; send the missing pages, then the end again`,
      );
    }
    if (!(await this.repositories.imports.end(found.importId, objectType, received)))
      throw AppError.conflict(`${objectType} of import ${importStartedAt} has already ended`);
    if (await this.repositories.imports.completeIfEnded(found.importId, this.clock())) {
      this.logger.info('import complete', { ...tenant, storeId, importStartedAt });
      // If this publish is lost, the import-coordinator's periodic check releases the import.
      await this.broker
        .publish(TOPICS.importCompleted, { kind: 'import-completed', importId: found.importId } satisfies ImportEventMessage)
        .catch((error) => this.logger.warn('publishing an import completion failed; the periodic check will release it', { error: String(error) }));
    }
  }

  private async find(tenant: ImportTenant, storeId: string, importStartedAt: number): Promise<ImportRecord> {
    const found = await this.repositories.imports.find(tenant, storeId, importStartedAt);
    if (!found) throw AppError.notFound(`No import started at ${importStartedAt} in store "${storeId}" of this application; start one with POST .../imports`);
    return found;
  }

  /** The import, when it still takes pages and ends of `objectType`. */
  private async open(tenant: ImportTenant, storeId: string, importStartedAt: number, objectType: ObjectType): Promise<ImportRecord> {
    const found = await this.find(tenant, storeId, importStartedAt);
    if (found.status === 'failed')
      throw AppError.conflict(`Import ${importStartedAt} failed (${found.failureReason ?? 'no reason recorded'}); start a new one`);
    if (found.status === 'complete') throw AppError.conflict(`Import ${importStartedAt} is complete; start a new one to send more`);
    const state = found.types[objectType];
    if (!state) throw AppError.badRequest(`Import ${importStartedAt} does not import ${objectType}`);
    if (state.ended) throw AppError.conflict(`${objectType} of import ${importStartedAt} has already ended; pages and ends after the end are refused`);
    return found;
  }
}
