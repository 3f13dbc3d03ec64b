import { randomUUID } from 'node:crypto';
import { type InboundMessage, type ObjectType, type SyncBatchMessage, TOPICS } from '@ecomm-sync/contracts';
import type { ImportItem, ImportRecord, Repositories } from '@ecomm-sync/data-access';
import { holdsRelease, type ImportEvent, type ImportState, isReceivedPage, RELEASE_DONE, RELEASE_ORDER, releaseStart } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { applyImportEvent } from './apply-import-event';
import type { ReleasePace } from './release-pace';

/**
 * Pages one read of a release holds (a page is up to the gateway's 4 MB body): with the releases a
 * replica runs at once (coordinate-imports.use-case.ts), what bounds its memory. Progress is stored
 * after each read.
 */
const PAGES_PER_READ = 5;

export interface ImportReleaseDeps {
  imports: Repositories['imports'];
  broker: Pick<Broker, 'publish'>;
  logger: Logger;
  /** Stamps the batches (`receivedAt`, the start of their sync lag, read on each replica's clock). */
  clock: () => number;
  /** The claims, holds and steps of a release, which replicas compare: the database server's clock in the service. */
  sharedClock: () => number;
  pace: Pick<ReleasePace, 'take' | 'giveBack'>;
  /** How long a release may go without progress before another releaser may take it over. */
  lookBackMs: number;
  /** Aborts when the service stops. */
  stopping: AbortSignal;
  /** Draws the token of a claim (default: a random UUID). */
  newOwner?: () => string;
}

/** Why a release stopped, as its import shows it. */
const PUBLISH_FAILED = 'a page could not be handed to the message broker';
const STORE_FAILED = "the import's pages or its progress could not be read or stored";

/** A page's publish was not confirmed (the broker away, blocked, or a timeout). */
class PagePublishError extends Error {
  constructor(cause: unknown) {
    super(`publishing a page failed: ${String(cause)}`, { cause });
  }
}

/** The release of one claim: who holds it, and the signal that ends it (the service stops, or another releaser took it over). */
interface Claim {
  importId: string;
  owner: string;
  signal: AbortSignal;
  /** False, and the release ends, once the stored import names another owner. */
  stillHeld(record: ImportState): boolean;
}

/**
 * An import's release to the mapper (decisions 49 and 57): its pages in release order, each a batch
 * with a fixed id that takes the import's start as change time, each after its portal's intake pace.
 * One releaser at a time: it claims the release by compare-and-set under a token of its own, says
 * it still holds it while it waits for the pace, and stops as soon as the stored import names
 * another owner (it stalled past the look-back and was taken over), so that it neither sends the
 * new owner's pages again nor charges its portal's pace for them twice.
 */
export class ImportRelease {
  private readonly newOwner: () => string;

  constructor(private readonly deps: ImportReleaseDeps) {
    this.newOwner = deps.newOwner ?? randomUUID;
  }

  /** Releases the import if this releaser can claim it (nobody progressed within `lookBackMs`). */
  async release(importId: string, lookBackMs = this.deps.lookBackMs): Promise<void> {
    const { sharedClock, logger, stopping } = this.deps;
    // A stopping replica claims nothing: its claim would hold the release from the others for a look-back.
    if (stopping.aborted) return;
    const owner = this.newOwner();
    const now = sharedClock();
    const claimed = await this.apply(importId, { kind: 'release-claimed', at: now, staleBefore: now - lookBackMs, owner });
    const start = claimed?.effects.some((effect) => effect.kind === 'release') ? releaseStart(claimed.record) : null;
    if (!claimed || !start) return;

    const lost = new AbortController();
    const claim: Claim = {
      importId,
      owner,
      signal: AbortSignal.any([stopping, lost.signal]),
      stillHeld: (record) => {
        if (!holdsRelease(record, owner)) lost.abort(new Error(`import ${importId}'s release was taken over by another releaser`));
        return !lost.signal.aborted;
      },
    };
    const holding = setInterval(
      () =>
        void this.apply(importId, { kind: 'release-held', at: sharedClock(), owner })
          .then((outcome) => outcome && claim.stillHeld(outcome.record))
          .catch((error) => logger.warn('holding an import release failed', { importId, error: String(error) })),
      Math.max(1, Math.floor(lookBackMs / 3)),
    );
    holding.unref();
    try {
      await this.releaseFrom(claimed.record, start, claim);
    } catch (error) {
      // No hold after this: one landing after the drop below would hold the release for nobody.
      clearInterval(holding);
      if (lost.signal.aborted) {
        logger.warn('import release taken over by another releaser after this one stalled; this one stops', { importId });
        return;
      }
      if (stopping.aborted) {
        logger.info('import release stopped with the service; another replica resumes it', { importId });
        return;
      }
      // The next check resumes it rather than waiting out the look-back. The import view shows why
      // it stalls, in words for its customer: the error itself (hosts, addresses) is only logged (by the caller).
      const reason = error instanceof PagePublishError ? PUBLISH_FAILED : STORE_FAILED;
      await this.apply(importId, { kind: 'release-dropped', owner, reason, at: sharedClock() }).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(holding);
    }
  }

  private async releaseFrom(found: ImportRecord, start: { objectType: ObjectType; afterPage: number }, claim: Claim): Promise<void> {
    const { imports, broker, pace, sharedClock, logger } = this.deps;
    const { importId, owner, signal } = claim;
    const portalId = found.tenant.portalId;
    let released = 0;
    for (const objectType of RELEASE_ORDER.slice(RELEASE_ORDER.indexOf(start.objectType))) {
      if (!found.types[objectType]) continue;
      let after = objectType === start.objectType ? start.afterPage : -1;
      for (;;) {
        const pages = await imports.pagesOf(importId, objectType, after, PAGES_PER_READ);
        // A page stored but never counted (its request failed after storing it) is not part of the import.
        const counted = pages.filter((page) => isReceivedPage(found, objectType, page.pageNumber));
        const published: Promise<void>[] = [];
        const publishing = { failed: false };
        for (const page of counted) {
          // After a failed publish nothing more is paced or sent: the message is retried.
          if (publishing.failed) break;
          // An empty page (SPEC.md: "up to 500") counts towards the end's pageCount and carries nothing to send.
          if (page.messages.length === 0) continue;
          const charged = await pace.take(portalId, page.messages.length, signal);
          if (publishing.failed || signal.aborted) {
            void pace.giveBack(portalId, charged);
            break;
          }
          const publish = broker.publish(`${TOPICS.syncBatch}.${objectType}`, this.batchOf(found, objectType, page), { lane: 'bulk' });
          publish.catch(() => {
            publishing.failed = true;
            void pace.giveBack(portalId, charged);
          });
          published.push(publish);
        }
        await Promise.all(published).catch((error: unknown) => {
          throw new PagePublishError(error);
        });
        signal.throwIfAborted();
        released += counted.reduce((sum, page) => sum + page.messages.length, 0);
        if (pages.length === 0) break;
        after = pages[pages.length - 1].pageNumber;
        const progressed = await this.apply(importId, { kind: 'release-progressed', through: `${objectType}:${after}`, done: false, at: sharedClock(), owner });
        if (progressed && !claim.stillHeld(progressed.record)) signal.throwIfAborted();
        if (pages.length < PAGES_PER_READ) break;
      }
    }
    const done = await this.apply(importId, { kind: 'release-progressed', through: RELEASE_DONE, done: true, at: sharedClock(), owner });
    if (done && !claim.stillHeld(done.record)) signal.throwIfAborted();
    logger.info('import released', { importId, messages: released });
  }

  private batchOf(found: ImportRecord, objectType: ObjectType, page: { pageNumber: number; messages: ImportItem[] }): SyncBatchMessage {
    return {
      batchId: `import:${found.importId}:${objectType}:${page.pageNumber}`,
      tenant: found.tenant,
      storeId: found.storeId,
      objectType,
      source: 'import',
      receivedAt: this.deps.clock(),
      messages: page.messages.map((item): InboundMessage => ({
        externalObjectId: item.externalObjectId,
        action: 'UPSERT',
        changedAt: found.importStartedAt,
        properties: item.properties as InboundMessage['properties'],
        ...(item.associations ? { associations: item.associations } : {}),
      })),
    };
  }

  private apply(importId: string, event: ImportEvent) {
    return applyImportEvent(this.deps.imports, this.deps.logger, importId, event);
  }
}
