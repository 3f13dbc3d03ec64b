import type { Channel } from 'amqplib';
import { TOPICS } from '@ecomm-sync/contracts';

/**
 * Every queue of the system and the routing keys bound to it: the one place the topology is
 * declared. Each queue has a retry queue (messages wait there for the retry delay, then return)
 * and a dead-letter queue (messages that failed for good, until redriven).
 */
export const QUEUES = {
  'mapper.sync-batches': { bindings: [`${TOPICS.syncBatch}.*`] },
  'applier.mapped-changes': { bindings: [`${TOPICS.mappedChanges}.*`] },
  'mapper.settings-work': { bindings: [TOPICS.settingsChanged, TOPICS.reapplyChunk, TOPICS.catchUp, TOPICS.refreshObjects] },
  'import-coordinator.events': { bindings: [TOPICS.importStarted, TOPICS.importCompleted, TOPICS.webhookCompleted] },
  'webhook-dispatcher.requests': { bindings: [TOPICS.webhookRequested] },
} as const satisfies Record<string, { bindings: readonly string[] }>;

export type QueueName = keyof typeof QUEUES;

export interface QueueNames {
  main: string;
  retry: string;
  dead: string;
}

export const exchangeName = (prefix: string): string => `${prefix}.events`;

export function namesOf(prefix: string, queue: QueueName): QueueNames {
  const main = `${prefix}.${queue}`;
  return { main, retry: `${main}.retry`, dead: `${main}.dlq` };
}

/** Idempotent; runs again on every reconnect. */
export async function declareTopology(channel: Channel, prefix: string, retryDelayMs: number): Promise<void> {
  const exchange = exchangeName(prefix);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  for (const [queue, { bindings }] of Object.entries(QUEUES) as [QueueName, (typeof QUEUES)[QueueName]][]) {
    const names = namesOf(prefix, queue);
    await channel.assertQueue(names.main, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
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
    for (const binding of bindings) await channel.bindQueue(names.main, exchange, binding);
  }
}
