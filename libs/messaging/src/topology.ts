import type { Channel } from 'amqplib';
import { TOPICS, type Lane } from '@ecomm-sync/contracts';

/**
 * Every queue of the system and the routing keys bound to it: the one place the topology is
 * declared. Each queue has a retry queue (messages wait there for the retry delay, then return)
 * and a dead-letter queue (messages that failed for good, until redriven).
 *
 * `lanes`: the queue has a second, bulk lane (docs/decisions/0045-interactive-and-bulk-lanes.md),
 * bound to the same topics under the `bulk.` prefix and consumed beside the interactive one; both
 * share the retry and dead-letter queues (a retried message comes back interactive).
 * `bulkWork`: what a consumer of this queue publishes goes on the bulk lanes (imports, re-applies
 * and catch-ups move many objects at once).
 */
export const QUEUES = {
  'mapper.sync-batches': { bindings: [`${TOPICS.syncBatch}.*`], lanes: true, bulkWork: false },
  'applier.mapped-changes': { bindings: [`${TOPICS.mappedChanges}.*`], lanes: true, bulkWork: false },
  'mapper.settings-work': {
    bindings: [TOPICS.settingsChanged, TOPICS.reapplyChunk, TOPICS.catchUp, TOPICS.refreshObjects],
    lanes: false,
    bulkWork: true,
  },
  'import-coordinator.events': { bindings: [TOPICS.importStarted, TOPICS.importCompleted, TOPICS.webhookCompleted], lanes: false, bulkWork: true },
  'webhook-dispatcher.requests': { bindings: [TOPICS.webhookRequested], lanes: false, bulkWork: false },
  'alert-evaluator.notices': { bindings: [TOPICS.alertNotice], lanes: false, bulkWork: false },
} as const satisfies Record<string, { bindings: readonly string[]; lanes: boolean; bulkWork: boolean }>;

export type QueueName = keyof typeof QUEUES;

export interface QueueNames {
  main: string;
  /** The bulk lane; null for a queue with one lane. */
  bulk: string | null;
  retry: string;
  dead: string;
}

const BULK_PREFIX = 'bulk.';

export const exchangeName = (prefix: string): string => `${prefix}.events`;

export function namesOf(prefix: string, queue: QueueName): QueueNames {
  const main = `${prefix}.${queue}`;
  return { main, bulk: QUEUES[queue].lanes ? `${main}.bulk` : null, retry: `${main}.retry`, dead: `${main}.dlq` };
}

/** The topics that have a bulk lane: the bindings (`<topic>.*`) of the queues with lanes. */
const LANED_TOPICS = Object.values(QUEUES).flatMap((queue) => (queue.lanes ? queue.bindings.map((binding) => binding.replace(/\*$/, '')) : []));

/** The routing key a message on `lane` is published with: bulk ones carry the prefix when their topic has a bulk lane. */
export function routingKeyOn(routingKey: string, lane: Lane): string {
  return lane === 'bulk' && LANED_TOPICS.some((topic) => routingKey.startsWith(topic)) ? `${BULK_PREFIX}${routingKey}` : routingKey;
}

/**
 * The queues a consumer of `queue` reads, one per lane (`main` is the lane's queue; retry and
 * dead-letter are shared), and the lane the work it does publishes on.
 */
export function lanesOf(prefix: string, queue: QueueName): { lane: Lane; names: QueueNames; workLane: Lane }[] {
  const names = namesOf(prefix, queue);
  const interactive: Lane = QUEUES[queue].bulkWork ? 'bulk' : 'interactive';
  return [
    { lane: 'interactive', names, workLane: interactive },
    ...(names.bulk ? [{ lane: 'bulk' as const, names: { ...names, main: names.bulk }, workLane: 'bulk' as const }] : []),
  ];
}

/** Idempotent; runs again on every reconnect. */
export async function declareTopology(channel: Channel, prefix: string, retryDelayMs: number): Promise<void> {
  const exchange = exchangeName(prefix);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  for (const [queue, { bindings }] of Object.entries(QUEUES) as [QueueName, (typeof QUEUES)[QueueName]][]) {
    const names = namesOf(prefix, queue);
    await channel.assertQueue(names.main, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    if (names.bulk) await channel.assertQueue(names.bulk, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(names.retry, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': retryDelayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': names.main,
      },
    });
    await channel.assertQueue(names.dead, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    for (const binding of bindings) {
      await channel.bindQueue(names.main, exchange, binding);
      if (names.bulk) await channel.bindQueue(names.bulk, exchange, `${BULK_PREFIX}${binding}`);
    }
  }
}
