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
/** Unfinished imports the periodic check releases at once. */
const RELEASES_AT_ONCE = 3;

/**
 * The import's asynchronous side: has the initialization webhook sent (through the
 * webhook-dispatcher), records its answer (expected counts) or the failure, and once an import is
 * complete releases its messages to the mapper with `changedAt` = `importStartedAt`, so that newer
 * sync messages win. What each event does to an import is the import machine's decision
 * (libs/domain, decision 49). The release is resumable and idempotent (each page is one batch
 * with a fixed id), and each page waits for its portal's intake pace (decision 57) before it goes out.
 */
export interface CoordinateImportsOptions {
  clock?: () => number;
  /** Each page waits for its portal's intake pace (default: none). */
  pace?: Pick<ReleasePace, 'take' | 'giveBack'>;
  /**
   * How long a release may go without progress before another releaser may take it over (default
   * 30 s, the periodic check's interval). The releaser says it still holds it three times as often.
   */
  lookBackMs?: number;
}

export class CoordinateImportsUseCase {
  private readonly clock: () => number;
  private readonly pace: Pick<ReleasePace, 'take' | 'giveBack'>;
  private readonly lookBackMs: number;
  private readonly stopping = new AbortController();

  constructor(
    private readonly repositories: Pick<Repositories, 'imports'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    options: CoordinateImportsOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.pace = options.pace ?? { take: async () => undefined, giveBack: async () => undefined };
    this.lookBackMs = options.lookBackMs ?? 30_000;
  }

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

  /**
   * Releases complete imports whose release did not finish and nobody holds (a lost event, a crash,
   * a stop), a few at once: one import waiting minutes for its portal's pace does not hold up another's.
   */
  async releaseUnfinished(olderThanMs: number): Promise<void> {
    const unreleased = await this.repositories.imports.unreleased(this.clock() - olderThanMs, 10);
    const next = unreleased.values();
    const releaser = async () => {
      for (const found of next) {
        await this.release(found.importId, olderThanMs).catch((error) =>
          this.logger.warn('releasing an unfinished import failed', { importId: found.importId, error: String(error) }),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(RELEASES_AT_ONCE, unreleased.length) }, releaser));
  }

  /** Stops releasing (the service stops): a release waiting for its portal's pace ends where it is, for another replica to resume. */
  stop(): void {
    this.stopping.abort();
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

  /**
   * Releases an import if this releaser can claim it (nobody progressed within the look-back), and
   * says it still holds it while it works, so that neither the periodic check nor a redelivered
   * completion starts a second release beside it.
   */
  private async release(importId: string, lookBackMs = this.lookBackMs): Promise<void> {
    // A stopping replica claims nothing: its claim would hold the release from the others for a look-back.
    if (this.stopping.signal.aborted) return;
    const now = this.clock();
    const claimed = await this.apply(importId, { kind: 'release-claimed', at: now, staleBefore: now - lookBackMs });
    const start = claimed?.effects.some((effect) => effect.kind === 'release') ? releaseStart(claimed.record) : null;
    if (!claimed || !start) return;
    const holding = setInterval(
      () =>
        void this.apply(importId, { kind: 'release-held', at: this.clock() }).catch((error) =>
          this.logger.warn('holding an import release failed', { importId, error: String(error) }),
        ),
      Math.max(1, Math.floor(lookBackMs / 3)),
    );
    holding.unref();
    try {
      await this.releaseFrom(claimed.record, start);
    } catch (error) {
      clearInterval(holding);
      if (this.stopping.signal.aborted) {
        this.logger.info('import release stopped with the service; another replica resumes it', { importId });
        return;
      }
      // The retried message (or the next check) resumes it at once rather than after the look-back.
      await this.apply(importId, { kind: 'release-dropped' }).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(holding);
    }
  }

  private async releaseFrom(found: ImportRecord, start: { objectType: ObjectType; afterPage: number }): Promise<void> {
    const { importId } = found;
    const portalId = found.tenant.portalId;
    let released = 0;
    for (const objectType of RELEASE_ORDER.slice(RELEASE_ORDER.indexOf(start.objectType))) {
      if (!found.types[objectType]) continue;
      let after = objectType === start.objectType ? start.afterPage : -1;
      for (;;) {
        const pages = await this.repositories.imports.pagesOf(importId, objectType, after, PAGES_PER_READ);
        // A page stored but never counted (its request failed after storing it) is not part of the import.
        const counted = pages.filter((page) => isReceivedPage(found, objectType, page.pageNumber));
        const published: Promise<void>[] = [];
        const publishing = { failed: false };
        for (const page of counted) {
          // After a failed publish nothing more is paced or sent: the message is retried.
          if (publishing.failed) break;
          await this.pace.take(portalId, page.messages.length, this.stopping.signal);
          if (publishing.failed) {
            void this.pace.giveBack(portalId, page.messages.length);
            break;
          }
          const publish = this.broker.publish(`${TOPICS.syncBatch}.${objectType}`, this.batchOf(found, objectType, page), { lane: 'bulk' });
          publish.catch(() => {
            publishing.failed = true;
            void this.pace.giveBack(portalId, page.messages.length);
          });
          published.push(publish);
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
