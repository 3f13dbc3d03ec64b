import type { ConsumeMessage } from 'amqplib';

/**
 * How many times a message may be delivered and left unsettled (its consumer gone mid-work: a
 * crash, an out-of-memory kill) before it is dead-lettered instead of handled again. Below the
 * delivery limit of quorum queues on RabbitMQ 4 (20 by default), past which the broker drops the
 * message, since our queues have no dead-letter target of their own
 * (docs/decisions/0058-redeliveries-dead-lettered-before-the-broker-drops-them.md).
 */
export const REDELIVERY_LIMIT = 10;

/** The broker's count of this message's earlier deliveries that ended unsettled (0 on a first delivery). */
export function unsettledDeliveries(message: ConsumeMessage): number {
  const count = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
  return Number.isFinite(count) ? count : 0;
}

/** Headers the broker sets on a delivery: its count of deliveries that ended unsettled (quorum queues). */
const BROKER_COUNT_HEADERS = ['x-delivery-count', 'x-acquired-count'];

/**
 * A delivered message's headers for a copy of it (retry, dead letter, redrive): without the
 * broker's delivery counts, which belong to the delivery, not to the message. A copy that comes
 * back through the retry queue keeps a copied count (the broker does not reset it), so it would
 * count deliveries it never had.
 */
export function withoutBrokerCounts(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !BROKER_COUNT_HEADERS.includes(name)));
}
