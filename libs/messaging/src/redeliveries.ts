import type { ConsumeMessage } from 'amqplib';

/**
 * How many times a delivery may come back unsettled (its consumer gone mid-work: a crash, an
 * out-of-memory kill, a lost connection) before it counts as one failed attempt: it is then moved
 * to the retry queue like any failure, and dead-lettered once its attempts ran out. The copy starts
 * the broker's count again, so it never reaches the delivery limit of quorum queues on RabbitMQ 4
 * (20 by default), past which the broker drops the message, since our queues have no dead-letter
 * target of their own (docs/decisions/0058-redeliveries-dead-lettered-before-the-broker-drops-them.md).
 */
export const REDELIVERY_LIMIT = 10;

/**
 * A delivery on its way to the dead-letter queue that came back unsettled this often is
 * dead-lettered without its `onDeadLetter` hook. Past REDELIVERY_LIMIT it comes back while the hook
 * runs (it reads the body to write the error record): the hook itself may stop the consumer, or
 * another message's crash did while the hook waited, or its copy kept failing. Dead-lettered
 * without its error record, it is kept; returned again, RabbitMQ 4 would drop it at 20.
 */
export const HOOKLESS_LIMIT = REDELIVERY_LIMIT + 5;

/** A delivery that came back unsettled REDELIVERY_LIMIT times: a failed attempt, retried until its attempts run out. */
export class RedeliveredTooOftenError extends Error {
  constructor(unsettled: number) {
    // The error record of a dead letter adds where the message is kept and how to redrive it.
    super(`message returned to its queue unsettled ${unsettled} times: its consumer stopped or lost its connection while handling it (a crash, a kill)`);
    this.name = 'RedeliveredTooOftenError';
  }
}

/**
 * The broker's count of this message's earlier deliveries that ended unsettled (no header on a first
 * delivery). RabbitMQ 3 and 4.0–4.2 count every return (a closed channel or connection, a requeue);
 * 4.3 and later only failed ones (a closed channel or connection, a reject), not a nack.
 */
export function unsettledDeliveries(message: ConsumeMessage): number {
  const count = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
  return Number.isFinite(count) ? count : 0;
}

/**
 * Headers of one delivery or copy, not of the message: the broker's counts of a quorum queue's
 * earlier deliveries (`x-acquired-count` from RabbitMQ 4.3), and the id of our last copy
 * (mandatory-copy.ts), which each copy sets anew.
 */
const BROKER_COUNT_HEADERS = ['x-delivery-count', 'x-acquired-count', 'x-copy-id'];

/**
 * A delivered message's headers for a copy of it (retry, dead letter, redrive): without the
 * broker's delivery counts, which belong to the delivery, not to the message. A copy that comes
 * back through the retry queue keeps a copied count (the broker does not reset it), so it would
 * count deliveries it never had.
 */
export function withoutBrokerCounts(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !BROKER_COUNT_HEADERS.includes(name)));
}
