import type { ConsumeMessage } from 'amqplib';
import type { Lane } from '@ecomm-sync/contracts';
import type { SplitBody } from './message-size';
import type { Logger, TraceContext } from '@ecomm-sync/runtime';

/** What the Broker is given and what its handlers get (the Broker itself: broker.ts). */

export interface BrokerOptions {
  url: string;
  prefix: string;
  prefetch: number;
  retryDelayMs: number;
  maxAttempts: number;
  logger: Logger;
  /** A publish not confirmed within this time fails (the caller answers 503, nothing is claimed). */
  publishTimeoutMs?: number;
  /** How long `connect` keeps trying before it fails (default 30 s). */
  connectTimeoutMs?: number;
  /** Deliveries a consumer of a bulk lane holds at once (default: `prefetch`); fewer leaves more of the process to the interactive lane. */
  bulkPrefetch?: number;
  /** Longest a bulk delivery is held while interactive work runs in this process (LanePriority). Default 0, never held; the services pass AMQP_BULK_HOLD_MS (100). */
  bulkHoldMs?: number;
  /** The largest message body published (default MAX_MESSAGE_BYTES, RabbitMQ 4's limit); larger ones are split or refused. */
  maxMessageBytes?: number;
}

export interface PublishOptions {
  /** Default: the lane of the work being done (its delivery's), else interactive. */
  lane?: Lane;
  /** Default: the current work's, else a new one. */
  correlationId?: string;
  /** How to make smaller messages of a body larger than the broker takes (message-size.ts); without it, such a body fails the publish. */
  split?: SplitBody;
}

export interface Delivery<T> {
  body: T;
  attempt: number;
  correlationId: string;
  /** The publisher's trace context, if it sent one. */
  trace: TraceContext | undefined;
  /** When the gateway accepted the data the message is about (epoch ms), if known. */
  acceptedAt: number | undefined;
  /** The lane it came in on. */
  lane: Lane;
  /** Whether the message may have been handled before: a retry, a delivery again, or a redrive from the dead-letter queue. */
  triedBefore: boolean;
  raw: ConsumeMessage;
}

export type MessageHandler<T> = (delivery: Delivery<T>) => Promise<void>;
/** May return the deliveries that failed on their own; a throw fails the whole batch. */
export type BatchHandler<T> = (deliveries: Delivery<T>[]) => Promise<void | { delivery: Delivery<T>; error: Error }[]>;

export interface BatchOptions {
  maxBatch: number;
  windowMs: number;
}
