import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { ConsumeMessage } from 'amqplib';
import { logContext, type Logger, messageMetrics, parseTraceparent, type Settlement as SettledAs, type TraceContext } from '@ecomm-sync/runtime';
import type { DeliverySource } from './consumer-channel';
import { PoisonMessageError } from './errors';
import { sendMandatory, UnroutableCopyError } from './mandatory-copy';
import { HOOKLESS_LIMIT, unsettledDeliveries, withoutBrokerCounts } from './redeliveries';

export const ATTEMPT_HEADER = 'x-attempt';
export const CORRELATION_HEADER = 'x-correlation-id';
/** W3C trace context of the span that published the message. */
export const TRACEPARENT_HEADER = 'traceparent';
/** When the gateway accepted the data the message is about (epoch ms), for the acceptance-to-CRM lag. */
export const ACCEPTED_AT_HEADER = 'x-accepted-at';
/** When a redrive moved the message back from its dead-letter queue (epoch ms). */
export const REDRIVEN_AT_HEADER = 'x-redriven-at';

/** How long a failed message whose copy could not be sent stays unacked before it is returned to its queue. */
const RETURN_DELAY_MS = 2_000;

/** What `onDeadLetter` gets: `body` is the parsed JSON, or undefined when the message is not JSON. */
export interface DeadLetter {
  body: unknown;
  raw: ConsumeMessage;
  correlationId: string;
  attempt: number;
}

/**
 * Runs before a message goes to the dead-letter queue, e.g. to write the error record a user sees.
 * If it throws, the message goes to the retry queue instead and comes back after the delay. It may
 * run more than once for one message (the message can be delivered again), so it must be idempotent.
 */
export type DeadLetterHook = (deadLetter: DeadLetter, error: Error) => Promise<void>;

export interface ConsumeOptions {
  onDeadLetter?: DeadLetterHook;
}

/**
 * How a delivered message ends: acked, or moved to its retry or dead-letter queue, always on the
 * channel that delivered it (docs/decisions/0017-acks-on-the-delivering-channel.md).
 */
export class Settlement {
  /** The channel each message came on (set by the consumer as messages arrive). */
  readonly deliveredOn = new WeakMap<ConsumeMessage, DeliverySource>();
  /** When each message arrived (performance.now()), for its processing time. */
  private readonly arrivedAt = new WeakMap<ConsumeMessage, number>();

  constructor(
    private readonly maxAttempts: number,
    private readonly logger: Logger,
    /** Resolves when copies may be sent (RabbitMQ is not blocking publishes): the delivery stays unacked meanwhile. */
    private readonly publishingFree: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Notes a message's arrival on its channel (counted as consumed). */
  received(message: ConsumeMessage, source: DeliverySource): void {
    this.deliveredOn.set(message, source);
    this.arrivedAt.set(message, performance.now());
    messageMetrics.consumed(source.queue);
  }

  /** Whether the channel that delivered the message is still open (else the broker delivers it again). */
  isLive(message: ConsumeMessage): boolean {
    return this.deliveredOn.get(message)?.open ?? false;
  }

  /** Acks on the delivering channel; once that channel is gone, the ack is dropped (the message is back in its queue). */
  ack(message: ConsumeMessage): void {
    this.acknowledge(message, 'acknowledged');
  }

  private acknowledge(message: ConsumeMessage, settledAs: SettledAs): void {
    const source = this.deliveredOn.get(message);
    if (!source?.open) return this.dropped(message, 'ack');
    try {
      source.channel.ack(message);
    } catch {
      return this.dropped(message, 'ack');
    }
    messageMetrics.settled(source.queue, settledAs, (performance.now() - (this.arrivedAt.get(message) ?? performance.now())) / 1000);
  }

  /**
   * Failure policy: a poison message goes to the dead-letter queue at once; a transient failure
   * goes to the retry queue (back after the retry delay) until maxAttempts, then dead-letters.
   * Before dead-lettering, `onDeadLetter` runs; if it fails, the message is retried instead. The
   * copy goes out on the delivering channel and the original is acked there only after the copy
   * was confirmed, so nothing is lost in between; if that channel closes first, the original is
   * delivered again.
   */
  async settle(message: ConsumeMessage, error: Error, { onDeadLetter }: ConsumeOptions): Promise<void> {
    const source = this.deliveredOn.get(message);
    if (!source?.open) return this.dropped(message, 'settlement');
    const { names } = source;
    const { attempt, correlationId } = readMeta(message);
    const { maxAttempts, logger } = this;
    let dead = error instanceof PoisonMessageError || attempt >= maxAttempts;
    let nextAttempt = dead ? attempt : attempt + 1;
    // Still returned unsettled after the limit made it a failure: the hook (it reads the body) may
    // be what stops the consumer, so the message is dead-lettered without it rather than returned
    // until RabbitMQ 4 drops it (redeliveries.ts).
    const hookless = dead && unsettledDeliveries(message) >= HOOKLESS_LIMIT;
    if (hookless) {
      logger.error('dead-lettered without its error record: it went on coming back unsettled, so its dead-letter hook may be what stops the consumer', {
        queue: names.main,
        attempt,
        unsettled: unsettledDeliveries(message),
      });
    }
    if (dead && onDeadLetter && !hookless) {
      try {
        // The body is parsed here only: a retried message is copied as it came.
        const { body } = readBody(message);
        await logContext.run({ correlationId }, () => onDeadLetter({ body, raw: message, correlationId, attempt }, error));
      } catch (hookError) {
        logger.error('the dead-letter hook failed; the message will be retried instead of dead-lettered', {
          queue: names.main,
          attempt,
          error: error.message,
          hookError: String(hookError),
        });
        dead = false;
        nextAttempt = Math.min(attempt, maxAttempts);
      }
    }
    // A retried message comes back through the default exchange, under the queue's name.
    const routingKey = String(message.properties.headers?.['x-original-routing-key'] ?? message.fields.routingKey);
    logger.log(dead ? 'error' : 'warn', dead ? 'message dead-lettered' : 'message will be retried', {
      queue: names.main,
      routingKey,
      attempt,
      error: error.message,
    });
    await this.publishingFree();
    try {
      await sendMandatory(source.channel, dead ? names.dead : names.retry, message.content, {
        persistent: true,
        contentType: message.properties.contentType,
        messageId: message.properties.messageId,
        headers: {
          ...withoutBrokerCounts(message.properties.headers),
          [ATTEMPT_HEADER]: nextAttempt,
          'x-last-error': error.message.slice(0, 1000),
          'x-original-routing-key': routingKey,
        },
      });
    } catch (publishError) {
      if (!source.open) return this.dropped(message, 'settlement');
      if (publishError instanceof UnroutableCopyError) {
        // Its retry or dead-letter queue was deleted by hand: returned every 2 s, the message would
        // loop for ever (RabbitMQ 3, 4.3) or be dropped at the delivery limit (4.0–4.2). A new
        // channel declares the queues again; the message comes back on it, with the others in flight.
        logger.error('the queue of a failed message’s copy is missing; reopening the channel, which declares it again', {
          queue: names.main,
          error: String(publishError),
        });
        source.renew();
        return;
      }
      logger.error('could not move a failed message; returning it to its queue', { queue: names.main, error: String(publishError) });
      // Not at once: each return counts a delivery, and a copy failing for a while (a queue without
      // a leader) would otherwise spend the message's deliveries in a second (redeliveries.ts).
      await delay(RETURN_DELAY_MS);
      if (!source.open) return this.dropped(message, 'nack');
      try {
        source.channel.nack(message, false, true);
      } catch {
        this.dropped(message, 'nack');
      }
      return;
    }
    this.acknowledge(message, dead ? 'dead-lettered' : 'retried');
  }

  private dropped(message: ConsumeMessage, what: string): void {
    this.logger.warn(`${what} dropped: the channel that delivered the message is closed, so the broker delivers it again`, {
      routingKey: message.fields.routingKey,
      messageId: message.properties.messageId,
    });
  }
}

export interface MessageMeta {
  attempt: number;
  correlationId: string;
  /** The publisher's trace context; undefined when it sent none (or an invalid one). */
  trace: TraceContext | undefined;
  /** When the gateway accepted the data (epoch ms); undefined for messages published before it was carried. */
  acceptedAt: number | undefined;
}

/** What a message's headers say of it (its body is not read). */
export function readMeta(message: ConsumeMessage): MessageMeta {
  const headers = message.properties.headers ?? {};
  const acceptedAt = Number(headers[ACCEPTED_AT_HEADER]);
  return {
    attempt: Number(headers[ATTEMPT_HEADER] ?? 1),
    correlationId: String(headers[CORRELATION_HEADER] ?? message.properties.messageId ?? randomUUID()),
    trace: parseTraceparent(headers[TRACEPARENT_HEADER]),
    acceptedAt: Number.isFinite(acceptedAt) && acceptedAt > 0 ? acceptedAt : undefined,
  };
}

/** The message's body as parsed JSON; `parsed` false (body undefined) when it is not JSON. */
export function readBody(message: ConsumeMessage): { body: unknown; parsed: boolean } {
  try {
    return { body: JSON.parse(message.content.toString('utf8')), parsed: true };
  } catch {
    return { body: undefined, parsed: false };
  }
}
