import {
  createValidator,
  type ImportEventMessage,
  type ImportInitialization,
  importInitializationResponseSchema,
  type ObjectType,
  TOPICS,
  type WebhookRequestMessage,
} from '@ecomm-sync/contracts';
import type { ImportRecord, Repositories } from '@ecomm-sync/data-access';
import type { ImportEvent } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { applyImportEvent } from './apply-import-event';
import { ImportRelease } from './release-import';
import type { ReleasePace } from './release-pace';

const validateAnswer = createValidator(importInitializationResponseSchema, 'answer');
/**
 * Releases one replica runs at once (default; IMPORT_RELEASES_AT_ONCE). Each holds a read of pages
 * (release-import.ts), so the bound keeps a replica's memory bounded whatever the completions
 * queued; a completion beyond it is left to the periodic check of this or another replica.
 */
const RELEASES_AT_ONCE = 6;

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
  /** Draws the token of a release claim (default: a random UUID). */
  newReleaseOwner?: () => string;
  /**
   * The clock of a release's claims and holds, which replicas compare: the database server's in the
   * service (default: `clock`, which stamps batches and looks for unfinished imports as before).
   */
  sharedClock?: () => number;
  /** Releases this replica runs at once, one per portal (default 6). */
  releasesAtOnce?: number;
  /** Told at each periodic check what waits for a release (portals, the oldest wait) and what this replica runs (the metrics). */
  observeBacklog?: (backlog: ReleaseBacklog) => void;
}

/** What waits for a release: portals with an import nobody holds, how long the oldest waited, what this replica runs. */
export interface ReleaseBacklog {
  portalsWaiting: number;
  oldestWaitMs: number;
  running: number;
}

export class CoordinateImportsUseCase {
  private readonly clock: () => number;
  private readonly sharedClock: () => number;
  private readonly stopping = new AbortController();
  private readonly releases: ImportRelease;
  private readonly lookBackMs: number;
  private readonly releasesAtOnce: number;
  /** The releases this replica runs, by import, with their portal; each removes itself when it ends. */
  private readonly running = new Map<string, { portalId: number; done: Promise<void> }>();
  /** Imports whose release failed here lately, until when the check leaves them (to another replica, or for later). */
  private readonly failedUntil = new Map<string, number>();
  private readonly observeBacklog: (backlog: ReleaseBacklog) => void;

  constructor(
    private readonly repositories: Pick<Repositories, 'imports'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    options: CoordinateImportsOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.sharedClock = options.sharedClock ?? this.clock;
    this.lookBackMs = options.lookBackMs ?? 30_000;
    this.releasesAtOnce = options.releasesAtOnce ?? RELEASES_AT_ONCE;
    this.observeBacklog = options.observeBacklog ?? (() => undefined);
    this.releases = new ImportRelease({
      imports: repositories.imports,
      broker,
      logger,
      clock: this.clock,
      sharedClock: this.sharedClock,
      pace: options.pace ?? { take: async () => 0, giveBack: async () => undefined },
      lookBackMs: this.lookBackMs,
      stopping: this.stopping.signal,
      newOwner: options.newReleaseOwner,
    });
  }

  async handle(event: ImportEventMessage): Promise<void> {
    switch (event.kind) {
      case 'import-started':
        return this.requestWebhook(event.importId);
      case 'webhook-completed':
        return event.ok ? this.recordAnswer(event.requestId, event.body) : this.recordFailure(event.requestId, event.reason);
      case 'import-completed': {
        // Started, not awaited: a release paced over an hour would hold its message past the broker's
        // delivery timeout (30 min), and its consumer's other messages with it.
        const found = await this.repositories.imports.findById(event.importId);
        if (found?.status === 'complete') this.startRelease(found, this.lookBackMs);
        return;
      }
    }
  }

  /**
   * Starts releasing complete imports whose release did not finish and nobody holds (a lost or
   * unclaimed completion, a failed release, a crash, a stop), as many as this replica has room for.
   * It does not wait for them: each tick looks again, so one import waiting minutes for its portal's
   * pace does not hold up another's.
   */
  async releaseUnfinished(olderThanMs: number): Promise<void> {
    // Progress is stamped with the shared clock: the cut-off is read on it too.
    const now = this.sharedClock();
    await this.observe(now, olderThanMs);
    const room = this.releasesAtOnce - this.running.size;
    if (room <= 0 || this.stopping.signal.aborted) return;
    // Oldest completion first, but none this replica would skip: they must not take the places of the others.
    for (const [importId, until] of this.failedUntil) if (until <= now) this.failedUntil.delete(importId);
    const unreleased = await this.repositories.imports.unreleased(now - olderThanMs, room, {
      exceptPortals: [...new Set([...this.running.values()].map((release) => release.portalId))],
      exceptImports: [...this.failedUntil.keys()],
    });
    for (const found of unreleased) this.startRelease(found, olderThanMs);
  }

  /** The backlog, read whether or not there is room (what scaling on it needs); a failed read only skips it. */
  private async observe(now: number, olderThanMs: number): Promise<void> {
    try {
      const { portals, oldestCompletedAt } = await this.repositories.imports.releaseBacklog(now - olderThanMs);
      this.observeBacklog({
        portalsWaiting: portals,
        oldestWaitMs: oldestCompletedAt === null ? 0 : Math.max(0, now - oldestCompletedAt),
        running: this.running.size,
      });
    } catch (error) {
      this.logger.warn('the import release backlog could not be read', { error: String(error) });
    }
  }

  /** Resolves once no release of this replica runs (those started meanwhile included). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((release) => release.done));
  }

  /**
   * Stops releasing (the service stops) and resolves once the running releases ended: one waiting
   * for its portal's pace ends where it is, for another replica to resume.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.settled();
  }

  /**
   * Runs the import's release beside the caller unless this replica already runs it, runs another
   * of its portal (they would share its pace, and hold a place another portal could use) or has no
   * room: the periodic check comes back for it. A failed release dropped its claim: another
   * replica's check may resume it at once, this one's after a look-back.
   */
  private startRelease({ importId, tenant: { portalId } }: Pick<ImportRecord, 'importId' | 'tenant'>, lookBackMs: number): void {
    if (this.running.size >= this.releasesAtOnce || this.running.has(importId)) return;
    if ([...this.running.values()].some((release) => release.portalId === portalId)) return;
    const done = this.releases.release(importId, lookBackMs).then(
      () => void this.failedUntil.delete(importId),
      (error) => {
        this.failedUntil.set(importId, this.sharedClock() + lookBackMs);
        this.logger.warn('releasing an import failed; a later check resumes it', { importId, error: String(error) });
      },
    );
    this.running.set(importId, { portalId, done: done.finally(() => this.running.delete(importId)) });
  }

  private async requestWebhook(importId: string): Promise<void> {
    const applied = await this.apply(importId, { kind: 'start-announced' });
    if (!applied?.effects.some((effect) => effect.kind === 'request-webhook')) return;
    const found = applied.record;
    const body: ImportInitialization = {
      portalId: found.tenant.portalId,
      // A v2 import is of one store, and its pages and end must name it: the receiver learns which here.
      ...(found.version === 'v2' ? { storeId: found.storeId } : {}),
      importStartedAt: found.importStartedAt,
      settingsToImport: Object.entries(found.types).map(([objectType, state]) => ({ settingsId: state.settingsId, objectType: objectType as ObjectType })),
    };
    const request: WebhookRequestMessage = { requestId: importId, appId: found.tenant.appId, url: found.webhookUri, body: JSON.stringify(body) };
    await this.broker.publish(TOPICS.webhookRequested, request);
    // Marked after the publish: a stop between the two asks again on the start's redelivery (at
    // least once); marked first, it could ask never.
    await this.apply(importId, { kind: 'webhook-requested', at: this.clock() });
  }

  private async recordAnswer(importId: string, answer: unknown): Promise<void> {
    const parsed = validateAnswer(answer);
    const applied = await this.apply(
      importId,
      parsed.ok
        ? { kind: 'webhook-answered', importCounts: parsed.value.importCounts, at: this.clock() }
        : { kind: 'failed', reason: `the receiver's answer is not an import initialization response: ${parsed.message}`, at: this.clock() },
    );
    if (!applied || applied.record.status === 'failed') return;
    const counts = Object.fromEntries(Object.entries(applied.record.types).map(([type, state]) => [type, state.expectedCount]));
    this.logger.info('import webhook answered', { importId, counts });
  }

  private async recordFailure(importId: string, reason: string): Promise<void> {
    await this.apply(importId, { kind: 'failed', reason, at: this.clock() });
  }

  private apply(importId: string, event: ImportEvent) {
    return applyImportEvent(this.repositories.imports, this.logger, importId, event);
  }
}
