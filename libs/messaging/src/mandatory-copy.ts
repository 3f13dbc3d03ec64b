import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, Message, Options } from 'amqplib';

/** Marks each copy, so that one the broker returns is known by its id when its confirm comes. */
const COPY_ID_HEADER = 'x-copy-id';
/** The copies each channel's broker returned, by id, until their confirm comes (a return precedes its confirm). */
const returnedCopies = new WeakMap<ConfirmChannel, Set<string>>();

/** The broker had no queue to route a copy to (the queue was deleted): it returned it, and nothing was stored. */
export class UnroutableCopyError extends Error {
  constructor(queue: string) {
    super(`${queue} does not exist: the broker returned the copy`);
    this.name = 'UnroutableCopyError';
  }
}

function returnsOn(channel: ConfirmChannel): Set<string> {
  let returned = returnedCopies.get(channel);
  if (!returned) {
    const ids = new Set<string>();
    channel.on('return', (message: Message) => {
      const id = message.properties.headers?.[COPY_ID_HEADER];
      if (typeof id === 'string') ids.add(id);
    });
    returnedCopies.set(channel, (returned = ids));
  }
  return returned;
}

/**
 * Sends a copy to a queue on a confirm channel and resolves once the broker confirmed it stored;
 * rejects if the channel closes first, or with UnroutableCopyError when the queue does not exist. A
 * plain send to a missing queue is confirmed and dropped: the original, acked after it, would be
 * lost. Sent `mandatory`, the broker returns it before its confirm; each copy carries an id, so
 * copies sent side by side on one channel are told apart.
 */
export function sendMandatory(channel: ConfirmChannel, queue: string, content: Buffer, options: Options.Publish): Promise<void> {
  const copyId = randomUUID();
  const returned = returnsOn(channel);
  return new Promise((resolve, reject) => {
    try {
      channel.sendToQueue(queue, content, { ...options, mandatory: true, headers: { ...options.headers, [COPY_ID_HEADER]: copyId } }, (error) => {
        const wasReturned = returned.delete(copyId);
        if (error) return reject(error);
        if (wasReturned) return reject(new UnroutableCopyError(queue));
        resolve();
      });
    } catch (error) {
      reject(error);
    }
  });
}
