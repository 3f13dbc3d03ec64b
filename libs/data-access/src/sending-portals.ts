import { anotherPortalSending, INTAKE_SENDING_WINDOW_MS, sendingDueAfter } from '@ecomm-sync/domain';
import type { IntakePaceRepository } from './repositories/intake-pace.repository';

/** How old the answer may grow before it is read again. */
const REFRESH_MS = 1_000;
/** Longest a read may take, on the server and here; one that takes longer counts as failed, and the next one may start. */
const READ_TIMEOUT_MS = 2_000;

/** Whether a portal other than the one asking is sending: the port the intake paces ask (SendingPortals in the service). */
export interface OtherSenders {
  othersSending(portalId: number): boolean;
}

/** Nobody else is ever sending, so the shared rate never applies: the paces' default where no SendingPortals is given. */
export const NO_OTHER_SENDERS: OtherSenders = { othersSending: () => false };

export interface SendingPortalsDeps {
  /** Epoch ms on the clock the paces' `due` are written on: the database server's (DatabaseClock). */
  clock: () => number;
  /** The process's own clock for the answer's age (default: monotonic). */
  elapsed?: () => number;
  windowMs?: number;
  refreshMs?: number;
  /** Told once when the read fails, again only after one succeeded; the last answer stays, for the window at most. */
  onFailure?: (error: unknown) => void;
  readTimeoutMs?: number;
}

/** Where a service writes that a read failed (its logger). */
export interface SendingReadWarnings {
  warn(message: string, meta: Record<string, unknown>): void;
}

/**
 * SendingPortals as every service that paces intake runs it (gateway, import-coordinator): `due`s
 * compared on `clock`, the database server's, and a failed read written once as a warning, in the
 * same words wherever it runs.
 */
export function servicesSendingPortals(paces: Pick<IntakePaceRepository, 'sendingSince'>, clock: () => number, log: SendingReadWarnings): SendingPortals {
  return new SendingPortals(paces, {
    clock,
    onFailure: (error) =>
      log.warn('which portals are sending could not be read; the last answer counts until it is older than the sending window', {
        error: String(error),
      }),
  });
}

/**
 * Which portals are sending, for the intake pace's shared rate (the rule: anotherPortalSending in
 * libs/domain): those whose shared pace (`due`) was moved by sync batches or import releases taken
 * on any gateway or import-coordinator replica within the window (decision 57, addendum of
 * 2026-12-02). The answer is read again at most once a second per process and never waited for.
 * What this process asks about itself counts at once, so that a flood starting beside a portal that
 * sends through the same replica is paced from its first batch, not up to a second later (bench:
 * fairness).
 */
export class SendingPortals implements OtherSenders {
  /** Up to two portals that were sending at the last read: enough to tell whether any is not the one asking. */
  private senders: readonly number[] = [];
  private readAt = Number.NEGATIVE_INFINITY;
  /** When a read last answered (elapsed ms): an answer older than the window is not used (anotherPortalSending). */
  private answeredAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;
  private failing = false;
  private readonly elapsed: () => number;
  /** The portals this process asked about, with when (elapsed ms), oldest first: one that asks again moves to the end. */
  private readonly askedHere = new Map<number, number>();

  constructor(
    private readonly paces: Pick<IntakePaceRepository, 'sendingSince'>,
    private readonly deps: SendingPortalsDeps,
  ) {
    this.elapsed = deps.elapsed ?? (() => performance.now());
  }

  /**
   * Notes that `portalId` sends now; whether another portal was sending at the last read, or asked
   * here within the window. Starts the next read when that one is due.
   */
  othersSending(portalId: number): boolean {
    const now = this.elapsed();
    if (!this.reading && now - this.readAt >= (this.deps.refreshMs ?? REFRESH_MS)) void this.read();
    this.noteAsked(portalId, now);
    return anotherPortalSending(portalId, { read: this.senders, readAt: this.answeredAt, askedHere: this.askedHere }, now, this.windowMs);
  }

  /** Notes the ask as the newest, and drops those that went quiet (oldest first, up to the first that did not): the map stays as small as the window's askers. */
  private noteAsked(portalId: number, now: number): void {
    this.askedHere.delete(portalId);
    this.askedHere.set(portalId, now);
    for (const [id, at] of this.askedHere) {
      if (now - at <= this.windowMs) return;
      this.askedHere.delete(id);
    }
  }

  private get windowMs(): number {
    return this.deps.windowMs ?? INTAKE_SENDING_WINDOW_MS;
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
      this.senders = await Promise.race([this.paces.sendingSince(sendingDueAfter(this.deps.clock(), this.windowMs), 2, timeoutMs), late]);
      this.answeredAt = this.elapsed();
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
