import amqplib from 'amqplib';
import { namesOf, QUEUES, type QueueName } from './topology';

export interface QueueStats {
  queue: QueueName;
  /** Messages ready in the work queue (both lanes), and the consumers reading its interactive lane. */
  depth: number;
  /** Of `depth`, those in the bulk lane (0 for a queue with one lane). */
  bulkDepth: number;
  consumers: number;
  /** Messages waiting out their retry delay. */
  retrying: number;
  /** Messages that failed for good, until redriven. */
  deadLetters: number;
}

/**
 * Depth and consumers of every queue of a prefix, with its retry and dead-letter queues (the
 * operator's view). A queue not declared yet reads as empty, with no consumer.
 */
export async function queueStats(url: string, prefix: string): Promise<QueueStats[]> {
  const connection = await amqplib.connect(url);
  try {
    const results: QueueStats[] = [];
    for (const queue of Object.keys(QUEUES) as QueueName[]) {
      const names = namesOf(prefix, queue);
      const check = async (name: string) => {
        // A missing queue closes the channel it was checked on: one channel per check.
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        try {
          return await channel.checkQueue(name);
        } catch {
          return { messageCount: 0, consumerCount: 0 };
        } finally {
          await channel.close().catch(() => undefined);
        }
      };
      const [main, retry, dead] = [await check(names.main), await check(names.retry), await check(names.dead)];
      const bulk = names.bulk ? await check(names.bulk) : { messageCount: 0 };
      results.push({
        queue,
        depth: main.messageCount + bulk.messageCount,
        bulkDepth: bulk.messageCount,
        consumers: main.consumerCount,
        retrying: retry.messageCount,
        deadLetters: dead.messageCount,
      });
    }
    return results;
  } finally {
    await connection.close();
  }
}
