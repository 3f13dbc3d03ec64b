import type { IntakePaceRepository } from './repositories/intake-pace.repository';

/** How recent a portal's intake must be for the portal to count as sending. */
export const SENDING_WINDOW_MS = 5_000;
/** How old the answer may grow before it is read again. */
const REFRESH_MS = 1_000;
/** Longest a read may take, on the server and here; one that takes longer counts as failed, and the next one may start. */
const READ_TIMEOUT_MS = 2_000;

export interface SendingPortalsDeps {
  /** Epoch ms on the clock the paces' `due` are written on: the database server's (DatabaseClock). */
  clock: () => number;
  /** The process's own clock for the answer's age (default: monotonic). */
  elapsed?: () => number;
  windowMs?: number;
  refreshMs?: number;
  /** Told once when the read fails, again only after one succeeded; the last answer stays. */
  onFailure?: (error: unknown) => void;
  readTimeoutMs?: number;
}

/**
 * Which portals are sending, for the intake pace's shared rate (intakeRateNow in libs/domain): those
 * whose shared pace (`due`) lies less than the window behind now, or ahead (a backlog), after sync
 * batches or import releases taken on any gateway or import-coordinator replica (decision 57,
 * addendum of 2026-12-02). The answer is read again at most once a second per process and never
 * waited for: a portal's batch is paced by what was known up to a second before it, and until the
 * first read answers, no other portal counts as sending.
 */
export class SendingPortals {
  /** Up to two portals that were sending at the last read: enough to tell whether any is not the one asking. */
  private senders: readonly number[] = [];
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;
  private failing = false;
  private readonly elapsed: () => number;

  constructor(
    private readonly paces: Pick<IntakePaceRepository, 'sendingSince'>,
    private readonly deps: SendingPortalsDeps,
  ) {
    this.elapsed = deps.elapsed ?? (() => performance.now());
  }

  /** Whether a portal other than `portalId` was sending at the last read; starts the next read when that one is due. */
  othersSending(portalId: number): boolean {
    if (!this.reading && this.elapsed() - this.readAt >= (this.deps.refreshMs ?? REFRESH_MS)) void this.read();
    return this.senders.some((id) => id !== portalId);
  }

  /** Reads who is sending now; while a read is under way, its answer. Never rejects: a failure keeps the last answer. */
  read(): Promise<void> {
    this.reading ??= this.readOnce().finally(() => {
      this.readAt = this.elapsed();
      this.reading = null;
    });
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    const timeoutMs = this.deps.readTimeoutMs ?? READ_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const since = this.deps.clock() - (this.deps.windowMs ?? SENDING_WINDOW_MS);
      this.senders = await Promise.race([this.paces.sendingSince(since, 2, timeoutMs), late]);
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.tellFailure(error);
      this.failing = true;
    } finally {
      clearTimeout(timer);
    }
  }

  private tellFailure(error: unknown): void {
    try {
      this.deps.onFailure?.(error);
    } catch {
      // A logger that throws must not take the process down from a background read.
    }
  }
}
