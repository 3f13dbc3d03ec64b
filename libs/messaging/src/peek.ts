import amqplib from 'amqplib';
import { withoutBrokerCounts } from './redeliveries';
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
 * The first messages of a queue's dead-letter queue, without taking them out and without counting a
 * delivery: each is got without ack, a copy (same body, properties and headers, less the broker's
 * delivery count) is published back to the dead-letter queue with confirms, and only then is the
 * original acknowledged. A nack with requeue counted as a delivery, and quorum queues drop a message
 * past their delivery limit (20 by default on RabbitMQ 4): a console polling every 5 s would have
 * lost the dead letters in about 100 s. The channel closing before the copies are confirmed
 * requeues the originals; closing between the confirms and the acks leaves a message twice, which a
 * redrive applies once (merges go by changedAt, decision 5). Peeking part of a queue rotates it.
 * A missing dead-letter queue reads as empty.
 */
export async function peekDeadLetters(url: string, prefix: string, queue: QueueName, options: PeekOptions = {}): Promise<PeekedMessage[]> {
  const limit = options.limit ?? 20;
  const maxBodyChars = options.maxBodyChars ?? 10_000;
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined);
    const dead = namesOf(prefix, queue).dead;
    const exists = await channel.checkQueue(dead).then(
      () => true,
      () => false,
    );
    if (!exists) return [];
    const held: amqplib.GetMessage[] = [];
    while (held.length < limit) {
      const message = await channel.get(dead, { noAck: false });
      if (!message) break;
      held.push(message);
    }
    for (const message of held) {
      const { headers, ...properties } = message.properties;
      channel.sendToQueue(dead, message.content, { ...withoutUnset(properties), headers: withoutBrokerCounts(headers), persistent: true });
    }
    await channel.waitForConfirms();
    // All at once (multiple), after the copies are safe.
    if (held.length > 0) channel.ack(held[held.length - 1], true);
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

/** The message properties amqplib reads as undefined are left out of the copy (publish takes only what is set). */
function withoutUnset(properties: Record<string, unknown>): amqplib.Options.Publish {
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined && value !== null)) as amqplib.Options.Publish;
}
