import amqplib from 'amqplib';
import { exchangeName, namesOf, QUEUES, type QueueName } from './topology';

/**
 * Moves every message of a queue's dead-letter queue back to the queue, with its attempt count
 * reset. Each message is acked in the dead-letter queue only after the broker confirmed its copy.
 */
export async function redriveDeadLetters(url: string, prefix: string, queue: QueueName): Promise<number> {
  const names = namesOf(prefix, queue);
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.checkQueue(names.dead);
    let moved = 0;
    for (;;) {
      const message = await channel.get(names.dead, { noAck: false });
      if (!message) break;
      const headers = { ...message.properties.headers, 'x-attempt': 1, 'x-redriven-at': Date.now() };
      channel.sendToQueue(names.main, message.content, {
        persistent: true,
        contentType: message.properties.contentType,
        messageId: message.properties.messageId,
        headers,
      });
      await channel.waitForConfirms();
      channel.ack(message);
      moved++;
    }
    await channel.close();
    return moved;
  } finally {
    await connection.close();
  }
}

/** Removes every queue and the exchange of a prefix (tests clean up their own topology with it). */
export async function purgeAndDeleteTopology(url: string, prefix: string): Promise<void> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of Object.keys(QUEUES) as QueueName[]) {
      const names = namesOf(prefix, queue);
      for (const name of [names.main, names.retry, names.dead]) await channel.deleteQueue(name);
    }
    await channel.deleteExchange(exchangeName(prefix));
    await channel.close();
  } finally {
    await connection.close();
  }
}
