import amqplib from 'amqplib';
import { createLogger } from '@ecomm-sync/runtime';
import { testInfrastructure, uniqueName } from '../../support';
import { Broker, namesOf, peekDeadLetters, purgeAndDeleteTopology } from '@ecomm-sync/messaging';

const { amqpUrl } = testInfrastructure();
const logger = createLogger('peek-test', 'error');

describe('peekDeadLetters against a real RabbitMQ', () => {
  let prefix: string;
  let broker: Broker | undefined;

  beforeEach(async () => {
    prefix = uniqueName('test-peek');
    broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger });
  });

  afterEach(async () => {
    await broker?.close(100);
    await purgeAndDeleteTopology(amqpUrl, prefix);
  });

  async function deadLetter(bodies: string[]) {
    const connection = await amqplib.connect(amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      bodies.forEach((body, n) =>
        channel.sendToQueue(namesOf(prefix, 'webhook-dispatcher.requests').dead, Buffer.from(body), {
          messageId: `m${n}`,
          contentType: 'application/json',
          headers: { 'x-attempt': 3, 'x-error': `failed ${n}` },
        }),
      );
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
  }

  const deadCount = async () => {
    const connection = await amqplib.connect(amqpUrl);
    try {
      return (await (await connection.createChannel()).checkQueue(namesOf(prefix, 'webhook-dispatcher.requests').dead)).messageCount;
    } finally {
      await connection.close();
    }
  };

  it('when dead letters are peeked, then their headers and bodies are read in order and all of them stay in the queue', async () => {
    await deadLetter(['{"n":0}', '{"n":1}', '{"n":2}']);
    const first = await peekDeadLetters(amqpUrl, prefix, 'webhook-dispatcher.requests');
    expect(first.map((m) => [m.messageId, m.body, m.headers['x-error']])).toEqual([
      ['m0', '{"n":0}', 'failed 0'],
      ['m1', '{"n":1}', 'failed 1'],
      ['m2', '{"n":2}', 'failed 2'],
    ]);
    expect(await deadCount()).toBe(3);
    // Read again: the same messages, in the same order (they went back to the head).
    expect((await peekDeadLetters(amqpUrl, prefix, 'webhook-dispatcher.requests')).map((m) => m.messageId)).toEqual(['m0', 'm1', 'm2']);
  });

  it('when more messages wait than the limit, then only the first ones are read and bodies past the size are cut', async () => {
    await deadLetter(['a'.repeat(50), 'b', 'c']);
    const peeked = await peekDeadLetters(amqpUrl, prefix, 'webhook-dispatcher.requests', { limit: 2, maxBodyChars: 10 });
    expect(peeked.map((m) => [m.body, m.truncated])).toEqual([
      ['a'.repeat(10), true],
      ['b', false],
    ]);
    expect(await deadCount()).toBe(3);
  });

  it('when dead letters are peeked more often than a quorum queue delivers a message, then none is dropped and none counts a delivery', async () => {
    await deadLetter(['{"n":0}', '{"n":1}']);
    // RabbitMQ 4 drops a quorum queue's message past 20 deliveries by default: a console polling
    // every 5 s peeks it 20 times in 100 s.
    for (let peek = 0; peek < 25; peek++) await peekDeadLetters(amqpUrl, prefix, 'webhook-dispatcher.requests');
    const peeked = await peekDeadLetters(amqpUrl, prefix, 'webhook-dispatcher.requests');
    // The broker's own count of deliveries (quorum queues): none so far, after 26 peeks.
    expect(peeked.map((m) => [m.messageId, m.body, m.headers['x-error'], m.headers['x-delivery-count'] ?? 0])).toEqual([
      ['m0', '{"n":0}', 'failed 0', 0],
      ['m1', '{"n":1}', 'failed 1', 0],
    ]);
    expect(await deadCount()).toBe(2);
  });

  it('when the dead-letter queue was never declared, then nothing is read', async () => {
    expect(await peekDeadLetters(amqpUrl, uniqueName('test-peek-missing'), 'webhook-dispatcher.requests')).toEqual([]);
  });
});
