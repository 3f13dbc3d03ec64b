import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { QueueDepth } from '@ecomm-sync/runtime';
import type { QueueName, QueueNames } from './topology';
import { withTimeout } from './with-timeout';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Reads the depth of the queues a process consumes, and of their dead-letter queues, when metrics
 * are scraped: one passive declare per queue on a channel of its own (a failed check closes only
 * that channel, which the next scrape replaces), bounded by a timeout so that a slow broker never
 * holds a scrape.
 */
export class QueueDepthProbe {
  private channel: ChannelWrapper | undefined;

  constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly queues: () => { queue: QueueName; names: QueueNames }[],
  ) {}

  async read(): Promise<QueueDepth[]> {
    if (!this.connection.isConnected()) return [];
    this.channel ??= this.connection.createChannel({ name: 'queue depth', setup: (channel: ConfirmChannel) => void channel.on('error', () => undefined) });
    const channel = this.channel;
    try {
      const read = async () => {
        await channel.waitForConnect();
        return Promise.all(
          this.queues().map(async ({ queue, names }) => {
            // Both lanes: what waits for this queue's consumers (and what scales them).
            const [main, bulk, dead] = await Promise.all([
              channel.checkQueue(names.main),
              names.bulk ? channel.checkQueue(names.bulk) : { messageCount: 0 },
              channel.checkQueue(names.dead),
            ]);
            return { queue, messages: main.messageCount + bulk.messageCount, deadLetters: dead.messageCount };
          }),
        );
      };
      return await withTimeout(read(), CHECK_TIMEOUT_MS, 'the broker did not tell the queue depths');
    } catch {
      this.channel = undefined;
      await channel.close().catch(() => undefined);
      return [];
    }
  }

  async close(): Promise<void> {
    await this.channel?.close().catch(() => undefined);
    this.channel = undefined;
  }
}
