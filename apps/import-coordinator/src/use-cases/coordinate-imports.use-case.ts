import {
  createValidator,
  type ImportEventMessage,
  type ImportInitialization,
  importInitializationResponseSchema,
  type InboundMessage,
  type ObjectType,
  type SyncBatchMessage,
  TOPICS,
  type WebhookRequestMessage,
} from '@ecomm-sync/contracts';
import { CAS_LOST, COMPARE_AND_SET_RETRY, retryCompareAndSet, type ImportItem, type ImportRecord, type Repositories } from '@ecomm-sync/data-access';
import { importTransition, isReceivedPage, RELEASE_DONE, RELEASE_ORDER, releaseStart, type ImportEffect, type ImportEvent } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import type { ReleasePace } from './release-pace';

const validateAnswer = createValidator(importInitializationResponseSchema, 'answer');

const PAGES_PER_READ = 20;

/**
 * The import's asynchronous side: has the initialization webhook sent (through the
 * webhook-dispatcher), records its answer (expected counts) or the failure, and once an import is
 * complete releases its messages to the mapper with `changedAt` = `importStartedAt`, so that newer
 * sync messages win. What each event does to an import is the import machine's decision
 * (libs/domain, decision 49). The release is resumable and idempotent (each page is one batch
 * with a fixed id), and each page waits for its portal's intake pace (decision 57) before it goes out.
 */
export class CoordinateImportsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'imports'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    private readonly pace: Pick<ReleasePace, 'take'> = { take: async () => undefined },
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
    const applied = await this.apply(importId, { kind: 'start-announced' });
    if (!applied?.effects.some((effect) => effect.kind === 'request-webhook')) return;
    const found = applied.record;
    const body: ImportInitialization = {
      portalId: found.tenant.portalId,
      importStartedAt: found.importStartedAt,
      settingsToImport: Object.entries(found.types).map(([objectType, state]) => ({ settingsId: state.settingsId, objectType: objectType as ObjectType })),
    };
    const request: WebhookRequestMessage = { requestId: importId, appId: found.tenant.appId, url: found.webhookUri, body: JSON.stringify(body) };
    await this.broker.publish(TOPICS.webhookRequested, request);
  }

  private async recordAnswer(importId: string, answer: unknown): Promise<void> {
    const parsed = validateAnswer(answer);
    const applied = await this.apply(
      importId,
      parsed.ok
        ? { kind: 'webhook-answered', importCounts: parsed.value.importCounts }
        : { kind: 'failed', reason: `the receiver's answer is not an import initialization response: ${parsed.message}` },
    );
    if (!applied || applied.record.status === 'failed') return;
    const counts = Object.fromEntries(Object.entries(applied.record.types).map(([type, state]) => [type, state.expectedCount]));
    this.logger.info('import webhook answered', { importId, counts });
  }

  private async recordFailure(importId: string, reason: string): Promise<void> {
    await this.apply(importId, { kind: 'failed', reason });
  }

  private async release(importId: string): Promise<void> {
    const found = await this.repositories.imports.findById(importId);
    const start = found && releaseStart(found);
    if (!found || !start) return;
    let released = 0;
    for (const objectType of RELEASE_ORDER.slice(RELEASE_ORDER.indexOf(start.objectType))) {
      if (!found.types[objectType]) continue;
      let after = objectType === start.objectType ? start.afterPage : -1;
      for (;;) {
        const pages = await this.repositories.imports.pagesOf(importId, objectType, after, PAGES_PER_READ);
        // A page stored but never counted (its request failed after storing it) is not part of the import.
        const counted = pages.filter((page) => isReceivedPage(found, objectType, page.pageNumber));
        const published: Promise<void>[] = [];
        for (const page of counted) {
          await this.pace.take(found.tenant.portalId, page.messages.length);
          const publishing = this.broker.publish(`${TOPICS.syncBatch}.${objectType}`, this.batchOf(found, objectType, page), { lane: 'bulk' });
          // Awaited together below; a failure while the next page waits must not go unhandled meanwhile.
          publishing.catch(() => undefined);
          published.push(publishing);
        }
        await Promise.all(published);
        released += counted.reduce((sum, page) => sum + page.messages.length, 0);
        if (pages.length === 0) break;
        after = pages[pages.length - 1].pageNumber;
        await this.apply(importId, { kind: 'release-progressed', through: `${objectType}:${after}`, done: false, at: this.clock() });
        if (pages.length < PAGES_PER_READ) break;
      }
    }
    await this.apply(importId, { kind: 'release-progressed', through: RELEASE_DONE, done: true, at: this.clock() });
    this.logger.info('import released', { importId, messages: released });
  }

  /**
   * One event on one import: read it, let the import machine decide, write by compare-and-set; a
   * write that lost to another (a gateway counting pages) is decided again on a fresh read. Null
   * when there is no such import. A refusal is a defect here, and so is losing every round: both
   * throw, and the message is retried.
   */
  private async apply(importId: string, event: ImportEvent): Promise<{ record: ImportRecord; effects: ImportEffect[] } | null> {
    const outcome = await retryCompareAndSet(async () => {
      const found = await this.repositories.imports.findById(importId);
      if (!found) return null;
      const transition = importTransition(found, event);
      if ('refused' in transition) throw new Error(`import ${importId} refused ${event.kind}: ${transition.refused.message}`);
      const { next, effects } = transition;
      if (next === found || (await this.repositories.imports.compareAndSet(importId, found.rev, next))) return { record: next, effects };
      return CAS_LOST;
    });
    if (outcome === CAS_LOST) throw new Error(`import ${importId} was changed by others in each of ${COMPARE_AND_SET_RETRY.rounds} tries of ${event.kind}`);
    for (const effect of outcome?.effects ?? []) {
      if (effect.kind === 'report-failure') this.logger.warn('import failed', { importId, reason: effect.reason });
    }
    return outcome;
  }

  private batchOf(found: ImportRecord, objectType: ObjectType, page: { pageNumber: number; messages: ImportItem[] }): SyncBatchMessage {
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
