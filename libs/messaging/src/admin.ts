import amqplib from 'amqplib';
import { sendMandatory, UnroutableCopyError } from './mandatory-copy';
import { withoutBrokerCounts } from './redeliveries';
import { REDRIVEN_AT_HEADER } from './settlement';
import { exchangeName, namesOf, QUEUES, type QueueName } from './topology';

/** A redrive the broker's queues do not allow as they are (a queue not declared, or gone meanwhile): says what was moved and what to do. */
export class RedriveRefusedError extends Error {}

/**
 * Moves the messages of a queue's dead-letter queue back to the queue, with their attempt count
 * reset. Each message is acked in the dead-letter queue only after the broker confirmed its copy
 * into the queue (a copy the broker could not route, the queue deleted meanwhile, leaves it there).
 * Only the messages there when it starts are moved: one that fails again at once and comes back
 * is left for the next redrive.
 */
export async function redriveDeadLetters(url: string, prefix: string, queue: QueueName): Promise<number> {
  const names = namesOf(prefix, queue);
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined); // a missing queue rejects checkQueue below, and closes the channel
    const { messageCount } = await channel.checkQueue(names.dead).catch((error: { code?: number }) => {
      throw error.code === 404
        ? new RedriveRefusedError(`${names.dead} does not exist: no service has declared the queues of prefix "${prefix}" on this broker`)
        : error;
    });
    // A copy sent to a queue that is gone is confirmed and dropped: the dead letter would be lost.
    await channel.checkQueue(names.main).catch((error: { code?: number }) => {
      throw error.code === 404
        ? new RedriveRefusedError(
            `${names.main} does not exist (its dead letters are kept): start a service of prefix "${prefix}" to declare it, then redrive again`,
          )
        : error;
    });
    let moved = 0;
    while (moved < messageCount) {
      const message = await channel.get(names.dead, { noAck: false });
      if (!message) break;
      const headers = { ...withoutBrokerCounts(message.properties.headers), 'x-attempt': 1, [REDRIVEN_AT_HEADER]: Date.now() };
      try {
        await sendMandatory(channel, names.main, message.content, {
          persistent: true,
          contentType: message.properties.contentType,
          messageId: message.properties.messageId,
          headers,
        });
      } catch (error) {
        if (!(error instanceof UnroutableCopyError)) throw error;
        // The main queue went away after the check: the dead letter stays where it is.
        channel.nack(message, false, true);
        throw new RedriveRefusedError(
          `${names.main} disappeared during the redrive: ${moved} moved, the others kept in ${names.dead}; redrive again once it is declared`,
        );
      }
      channel.ack(message);
      moved++;
    }
    await channel.close();
    return moved;
  } finally {
    await connection.close();
  }
}

/**
 * Redrives the dead letters of every queue, one queue after the other; says how many moved per
 * queue, each as soon as it is done (`onMoved`): a failure at a later queue does not hide what the
 * earlier ones moved.
 */
export async function redriveAllDeadLetters(
  url: string,
  prefix: string,
  onMoved: (result: { queue: QueueName; moved: number }) => void = () => undefined,
): Promise<{ queue: QueueName; moved: number }[]> {
  const results: { queue: QueueName; moved: number }[] = [];
  for (const queue of Object.keys(QUEUES) as QueueName[]) {
    const result = { queue, moved: await redriveDeadLetters(url, prefix, queue) };
    results.push(result);
    onMoved(result);
  }
  return results;
}

/** True for the name of a queue of the topology (for checking what a user typed). */
export const isQueueName = (name: string): name is QueueName => Object.prototype.hasOwnProperty.call(QUEUES, name);

/** Removes every queue and the exchange of a prefix (tests clean up their own topology with it). */
export async function purgeAndDeleteTopology(url: string, prefix: string): Promise<void> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of Object.keys(QUEUES) as QueueName[]) {
      const names = namesOf(prefix, queue);
      for (const name of [names.main, names.bulk, names.retry, names.dead]) if (name) await channel.deleteQueue(name);
    }
    await channel.deleteExchange(exchangeName(prefix));
    await channel.close();
  } finally {
    await connection.close();
  }
}
