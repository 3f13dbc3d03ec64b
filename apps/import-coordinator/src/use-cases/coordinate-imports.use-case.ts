import type { ImportEventMessage, ImportInitialization, InboundMessage, ObjectType, SyncBatchMessage, WebhookRequestMessage } from '@ecomm-sync/contracts';
import { createValidator, importInitializationResponseSchema, TOPICS } from '@ecomm-sync/contracts';
import type { ImportRecord, ImportTypeState, Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/logger';
import type { Broker } from '@ecomm-sync/messaging';

const validateAnswer = createValidator(importInitializationResponseSchema, 'answer');

/** Objects others associate with first, so that few line items have to wait. */
const RELEASE_ORDER: ObjectType[] = ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'];
const PAGES_PER_READ = 20;

/**
 * The import state machine's asynchronous side: has the initialization webhook sent (through the
 * webhook-dispatcher), records its answer (expected counts) or the failure, and once an import is
 * complete releases its messages to the mapper with `changedAt` = `importStartedAt`, so that newer
 * sync messages win. The release is resumable and idempotent (each page is one batch with a fixed id).
 */
export class CoordinateImportsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'imports'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async handle(event: ImportEventMessage): Promise<void> {
    switch (event.kind) {
      case 'import-started':
        return this.requestWebhook(event.importId);
      case 'webhook-completed':
        return event.ok ? this.recordAnswer(event.requestId, event.body) : this.recordFailure(event.requestId, event.reason);
      case 'import-completed':
        return this.release(event.importId);
    }
  }

  /** Releases complete imports whose release did not finish (a lost event or a crash). */
  async releaseUnfinished(olderThanMs: number): Promise<void> {
    for (const found of await this.repositories.imports.unreleased(this.clock() - olderThanMs, 10)) await this.release(found.importId);
  }

  private async requestWebhook(importId: string): Promise<void> {
    const found = await this.repositories.imports.findById(importId);
    if (!found || found.status !== 'initialized') return;
    const body: ImportInitialization = {
      portalId: found.tenant.portalId,
      importStartedAt: found.importStartedAt,
      settingsToImport: (Object.entries(found.types) as [ObjectType, ImportTypeState][]).map(([objectType, state]) => ({
        settingsId: state.settingsId,
        objectType,
      })),
    };
    const request: WebhookRequestMessage = { requestId: importId, appId: found.tenant.appId, url: found.webhookUri, body: JSON.stringify(body) };
    await this.broker.publish(TOPICS.webhookRequested, request);
  }

  private async recordAnswer(importId: string, answer: unknown): Promise<void> {
    const found = await this.repositories.imports.findById(importId);
    if (!found) return;
    const parsed = validateAnswer(answer);
    if (!parsed.ok) return this.recordFailure(importId, `the receiver's answer is not an import initialization response: ${parsed.message}`);
    const bySettings = new Map(parsed.value.importCounts.map((entry) => [entry.settingsId, entry.count]));
    const counts: Partial<Record<ObjectType, number | null>> = {};
    for (const [objectType, state] of Object.entries(found.types) as [ObjectType, ImportTypeState][]) {
      if (!bySettings.has(state.settingsId))
        return this.recordFailure(importId, `the receiver's answer has no importCounts entry for settingsId ${state.settingsId} (${objectType})`);
      counts[objectType] = bySettings.get(state.settingsId) ?? null;
    }
    await this.repositories.imports.setExpectedCounts(importId, counts);
    this.logger.info('import webhook answered', { importId, counts });
  }

  private async recordFailure(importId: string, reason: string): Promise<void> {
    await this.repositories.imports.fail(importId, reason);
    this.logger.warn('import failed', { importId, reason });
  }

  private async release(importId: string): Promise<void> {
    const found = await this.repositories.imports.findById(importId);
    if (!found || found.status !== 'complete' || found.releasedAt !== null) return;
    const [resumeType, resumePage] = found.releasedThrough ? found.releasedThrough.split(':') : [RELEASE_ORDER[0], '-1'];
    let released = 0;
    for (const objectType of RELEASE_ORDER.slice(RELEASE_ORDER.indexOf(resumeType as ObjectType))) {
      if (!found.types[objectType]) continue;
      let after = objectType === resumeType ? Number(resumePage) : -1;
      for (;;) {
        const pages = await this.repositories.imports.pagesOf(importId, objectType, after, PAGES_PER_READ);
        await Promise.all(
          pages.map((page) => this.broker.publish(`${TOPICS.syncBatch}.${objectType}`, this.batchOf(found, objectType, page), { lane: 'bulk' })),
        );
        released += pages.reduce((sum, page) => sum + page.messages.length, 0);
        if (pages.length === 0) break;
        after = pages[pages.length - 1].pageNumber;
        await this.repositories.imports.markReleased(importId, `${objectType}:${after}`, false, this.clock());
        if (pages.length < PAGES_PER_READ) break;
      }
    }
    await this.repositories.imports.markReleased(importId, `${RELEASE_ORDER[RELEASE_ORDER.length - 1]}:done`, true, this.clock());
    this.logger.info('import released', { importId, messages: released });
  }

  private batchOf(
    found: ImportRecord,
    objectType: ObjectType,
    page: {
      pageNumber: number;
      messages: { externalObjectId: string; properties: Record<string, unknown>; associations?: Partial<Record<ObjectType, string[]>> }[];
    },
  ): SyncBatchMessage {
    return {
      batchId: `import:${found.importId}:${objectType}:${page.pageNumber}`,
      tenant: found.tenant,
      storeId: found.storeId,
      objectType,
      source: 'import',
      receivedAt: this.clock(),
      messages: page.messages.map((item): InboundMessage => ({
        externalObjectId: item.externalObjectId,
        action: 'UPSERT',
        changedAt: found.importStartedAt,
        properties: item.properties as InboundMessage['properties'],
        ...(item.associations ? { associations: item.associations } : {}),
      })),
    };
  }
}
