import {
  destinationShown,
  type AlertDestination,
  type AlertDestinationRepository,
  type AlertNotice,
  type AlertNoticeRepository,
} from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import { PoisonMessageError } from '@ecomm-sync/messaging';

/** One attempt to deliver a notice: `final` when trying again cannot help (a refused target, a 4xx, a 5xx SMTP answer). */
export type NoticeAttempt = { ok: true } | { ok: false; final: boolean; error: string };

/** The notice sender port: one channel per kind of destination (signed webhook, Slack, e-mail). */
export interface NoticeChannel {
  send(destination: AlertDestination, notice: AlertNotice): Promise<NoticeAttempt>;
}

export interface SendNoticePorts {
  notices: Pick<AlertNoticeRepository, 'take' | 'recordAttempt' | 'finish'>;
  destinations: Pick<AlertDestinationRepository, 'find'>;
  channels: Record<AlertDestination['kind'], NoticeChannel>;
  clock: () => number;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
}

export interface SendNoticeOptions {
  maxAttempts: number;
  backoffBaseMs: number;
  /** How long a sender holds a notice before another replica may take it over (longer than all attempts). */
  leaseMs: number;
}

/** A notice failed for good: its error is on the notice (the console shows it), and the message is dead-lettered for a redrive. */
export class NoticeFailedError extends PoisonMessageError {
  constructor(noticeId: string, reason: string) {
    super(`notice ${noticeId} failed: ${reason}`);
    this.name = 'NoticeFailedError';
  }
}

/**
 * Sends one stored notice. It is taken by compare and set first, so a notice queued twice, or
 * delivered to two replicas, is sent once; one already sent is left alone. Bounded attempts with
 * exponential backoff and jitter, each recorded on the notice; a final failure marks it failed with
 * its reason and dead-letters the message (a redrive sends it again).
 */
export class SendNoticeUseCase {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly ports: SendNoticePorts,
    private readonly options: SendNoticeOptions,
  ) {
    this.sleep = ports.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async send(noticeId: string): Promise<'sent' | 'skipped'> {
    const { notices, destinations, channels, clock, logger } = this.ports;
    const now = clock();
    const held = now + this.options.leaseMs;
    const notice = await notices.take(noticeId, now, held);
    if (!notice) return 'skipped';
    // This sender ran past its lease, and another may have taken the notice over: that one carries on, this one stops.
    const takenOver = () => {
      logger.warn('alert notice: this sender ran past its lease and stops', { noticeId });
      return 'skipped' as const;
    };
    const destination = await destinations.find(notice.destinationId);
    if (!destination) {
      return (await notices.finish(noticeId, held, { sent: false, error: 'the destination was removed' })) ? 'skipped' : takenOver();
    }
    let last: NoticeAttempt = { ok: false, final: false, error: 'not tried' };
    let attempts = 0;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (attempt > 1) await this.sleep(this.backoff(attempt));
      if (clock() >= held) return takenOver(); // past its lease another sender may hold it: no attempt of this one's then
      attempts = attempt;
      last = await channels[destination.kind].send(destination, notice);
      if (!(await notices.recordAttempt(noticeId, held, last.ok ? null : last.error))) return takenOver();
      if (last.ok) return (await notices.finish(noticeId, held, { sent: true, at: clock() })) ? 'sent' : takenOver();
      if (last.final) break;
    }
    // Read by everyone who reads the tenant's alerts: a URL by its origin and last characters (it may be a credential).
    const reason = `${destination.kind} ${destinationShown(destination)}: ${last.ok ? '' : last.error} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    if (!(await notices.finish(noticeId, held, { sent: false, error: reason }))) return takenOver();
    logger.warn('alert notice failed', { noticeId, portalId: notice.portalId, reason });
    throw new NoticeFailedError(noticeId, reason);
  }

  /** Exponential, with jitter (half to full of the step), so the retries of many notices spread out. */
  private backoff(attempt: number): number {
    const step = this.options.backoffBaseMs * 2 ** (attempt - 2);
    return Math.round(step / 2 + Math.random() * (step / 2));
  }
}
