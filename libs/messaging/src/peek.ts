import amqplib from 'amqplib';
import { namesOf, type QueueName } from './topology';

/** One dead-lettered message as the operator sees it: its properties, headers and body (as text). */
export interface PeekedMessage {
  messageId: string | null;
  contentType: string | null;
  /** When it was published (epoch ms), when the publisher set it. */
  timestamp: number | null;
  headers: Record<string, unknown>;
  body: string;
  /** True when the body was longer than `maxBodyChars` and was cut. */
  truncated: boolean;
}

export interface PeekOptions {
  /** At most this many messages, from the head of the queue (default 20). */
  limit?: number;
  /** Longer bodies are cut to this many characters (default 10,000). */
  maxBodyChars?: number;
}

/**
 * The first messages of a queue's dead-letter queue, without taking them out: each is got
 * without ack and, once all are read, nacked with requeue. The channel closing early (a crash)
 * requeues them too. Quorum queues put requeued messages behind the others, so peeking part of a
 * queue rotates it (harmless here: a redrive moves them all, and merges go by changedAt,
 * decision 5). A missing dead-letter queue reads as empty.
 */
export async function peekDeadLetters(url: string, prefix: string, queue: QueueName, options: PeekOptions = {}): Promise<PeekedMessage[]> {
  const limit = options.limit ?? 20;
  const maxBodyChars = options.maxBodyChars ?? 10_000;
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    const exists = await channel.checkQueue(namesOf(prefix, queue).dead).then(
      () => true,
      () => false,
    );
    if (!exists) return [];
    const held: amqplib.GetMessage[] = [];
    while (held.length < limit) {
      const message = await channel.get(namesOf(prefix, queue).dead, { noAck: false });
      if (!message) break;
      held.push(message);
    }
    // All at once (multiple), after the reads: requeued one by one, the next get could return the same message.
    if (held.length > 0) channel.nack(held[held.length - 1], true, true);
    await channel.close();
    return held.map((message) => {
      const text = message.content.toString('utf8');
      const { messageId, contentType, timestamp, headers } = message.properties;
      return {
        messageId: messageId ? String(messageId) : null,
        contentType: contentType ? String(contentType) : null,
        timestamp: typeof timestamp === 'number' ? timestamp : null,
        headers: { ...(headers ?? {}) },
        body: text.length > maxBodyChars ? text.slice(0, maxBodyChars) : text,
        truncated: text.length > maxBodyChars,
      };
    });
  } finally {
    await connection.close();
  }
}
