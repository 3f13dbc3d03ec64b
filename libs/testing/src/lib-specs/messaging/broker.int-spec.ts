import amqplib from 'amqplib';
import { createValidator } from '@ecomm-sync/contracts';
import { createLogger } from '@ecomm-sync/runtime';
import { recordingLogger, testInfrastructure, uniqueName, waitFor } from '../../support';
import {
  Broker,
  type BrokerOptions,
  type DeadLetter,
  type Delivery,
  exchangeName,
  namesOf,
  PoisonMessageError,
  purgeAndDeleteTopology,
  redriveAllDeadLetters,
  redriveDeadLetters,
  sendMandatory,
  UnroutableCopyError,
} from '@ecomm-sync/messaging';

const { amqpUrl } = testInfrastructure();
const logger = createLogger('broker-test', 'error');
const validatePing = createValidator({ type: 'object', required: ['n'], properties: { n: { type: 'integer' } } });

describe('Broker against a real RabbitMQ', () => {
  let prefix: string;
  const brokers: Broker[] = [];

  const connect = async (overrides: Partial<BrokerOptions> = {}) => {
    const broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger, ...overrides });
    brokers.push(broker);
    return broker;
  };

  const depth = async (queue: string) => {
    const connection = await amqplib.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  };

  beforeEach(() => {
    prefix = uniqueName('test-broker');
  });

  afterEach(async () => {
    await Promise.all(brokers.splice(0).map((broker) => broker.close(100)));
    await purgeAndDeleteTopology(amqpUrl, prefix);
  });

  it('when a failed message’s retry queue was deleted by hand, then its copy is not dropped: a new channel declares the queue again and the message is retried', async () => {
    const broker = await connect();
    const handled: Delivery<{ n: number }>[] = [];
    await broker.consume<{ n: number }>(
      'mapper.sync-batches',
      async (delivery) => {
        handled.push(delivery);
        if (handled.length <= 2) throw new Error('database unreachable');
      },
      validatePing,
    );
    const names = namesOf(prefix, 'mapper.sync-batches');
    const admin = await amqplib.connect(amqpUrl);
    try {
      await (await admin.createChannel()).deleteQueue(names.retry);
    } finally {
      await admin.close();
    }

    await broker.publish('sync.batch.CONTACT', { n: 7 });

    // A plain copy would have been confirmed into nothing and the message acked: handled once, lost.
    // Here: refused, the channel renewed (declaring the retry queue), the message back and retried.
    await waitFor(() => handled.length === 3, { message: 'the message back, failed again, then retried' });
    expect(handled.map((delivery) => [delivery.body.n, delivery.attempt, delivery.raw.fields.redelivered])).toEqual([
      [7, 1, false],
      [7, 1, true],
      [7, 2, false],
    ]);
    expect(await depth(names.retry)).toBe(0); // declared again
  });

  it('when the broker closes the publisher channel while the connection stays up, then a new channel publishes again', async () => {
    const broker = await connect({ publishTimeoutMs: 1_000 });
    const stored: number[] = [];
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void stored.push(body.n), validatePing);
    // The exchange deleted under the publisher: its next publish is refused (404), which closes its channel, not the connection.
    const admin = await amqplib.connect(amqpUrl);
    try {
      await (await admin.createChannel()).deleteExchange(exchangeName(prefix));
    } finally {
      await admin.close();
    }
    await expect(broker.publish('sync.batch.CONTACT', { n: 1 })).rejects.toThrow(/publishing sync.batch.CONTACT failed \(connected\)/);

    // The new channel declares the topology again, the exchange and its bindings with it.
    await waitFor(
      () =>
        broker.publish('sync.batch.CONTACT', { n: 2 }).then(
          () => true,
          () => false,
        ),
      { message: 'a publish to go through a new publisher channel' },
    );
    await waitFor(() => stored.includes(2), { message: 'the message to be consumed' });
  });

  it('when a new publisher channel cannot declare the topology, then the broker says it is not connected until one can', async () => {
    const { logger: recording, entries } = recordingLogger('warn');
    const broker = await connect({ publishTimeoutMs: 1_000, logger: recording });
    expect(broker.isConnected()).toBe(true);
    // A retry queue declared again with other arguments: every new channel's topology is refused (406).
    const retry = namesOf(prefix, 'mapper.sync-batches').retry;
    const admin = await amqplib.connect(amqpUrl);
    try {
      const channel = await admin.createChannel();
      await channel.deleteQueue(retry);
      await channel.assertQueue(retry, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      await channel.deleteExchange(exchangeName(prefix));
    } finally {
      await admin.close();
    }
    await expect(broker.publish('sync.batch.CONTACT', { n: 1 })).rejects.toThrow(/publishing sync.batch.CONTACT failed/);
    await waitFor(() => !broker.isConnected(), { message: 'the broker to report it cannot publish' });
    // The 404 closed the first channel; a new one's topology was refused (406) and closed it too: still not ready.
    const closes = () => entries.filter((entry) => entry.message.startsWith('the broker closed the publisher channel'));
    await waitFor(() => closes().some((entry) => /PRECONDITION_FAILED/.test(String(entry.error))), { message: 'a new channel to be refused its topology' });
    expect(broker.isConnected()).toBe(false);

    await purgeAndDeleteTopology(amqpUrl, prefix); // the conflicting queue gone: the next channel declares the topology
    await waitFor(() => broker.isConnected(), { message: 'a new publisher channel to be set up' });
    await broker.publish('sync.batch.CONTACT', { n: 2 });
  });

  it('when a handler succeeds, then the message is acked and gone from the queue', async () => {
    const broker = await connect();
    const stored: number[] = [];
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void stored.push(body.n), validatePing);
    await broker.publish('sync.batch.CONTACT', { n: 1 });
    await waitFor(() => stored.length === 1, { message: 'the handler to store the message' });
    await waitFor(async () => (await depth(namesOf(prefix, 'mapper.sync-batches').main)) === 0, { message: 'the queue to be empty' });
    expect(stored).toEqual([1]);
  });

  it('when the consumer dies before its handler finished, then the message is delivered again (no ack before the work is stored)', async () => {
    const first = await connect();
    let started = false;
    await first.consume('mapper.sync-batches', () => {
      started = true;
      return new Promise<void>(() => undefined); // never finishes: the work is never stored
    });
    await first.publish('sync.batch.CONTACT', { n: 7 });
    await waitFor(() => started, { message: 'the first handler to start' });
    await first.close(0);

    const second = await connect();
    const redelivered: Delivery<{ n: number }>[] = [];
    await second.consume<{ n: number }>('mapper.sync-batches', async (delivery) => void redelivered.push(delivery));
    await waitFor(() => redelivered.length === 1, { message: 'the message to be delivered again' });
    expect(redelivered[0].body).toEqual({ n: 7 });
    expect(redelivered[0].raw.fields.redelivered).toBe(true);
  });

  it('when a handler fails transiently, then the message comes back after the delay and succeeds', async () => {
    const broker = await connect();
    const attempts: number[] = [];
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ attempt }) => {
      attempts.push(attempt);
      if (attempt === 1) throw new Error('database unreachable');
    });
    await broker.publish('sync.batch.DEAL', { n: 2 });
    await waitFor(() => attempts.length === 2, { message: 'the retry' });
    expect(attempts).toEqual([1, 2]);
    expect(await depth(namesOf(prefix, 'mapper.sync-batches').dead)).toBe(0);
  });

  it('when a handler keeps failing, then the message is dead-lettered after the last attempt', async () => {
    const broker = await connect({ maxAttempts: 2 });
    const attempts: number[] = [];
    await broker.consume('mapper.sync-batches', async ({ attempt }) => {
      attempts.push(attempt);
      throw new Error('still failing');
    });
    await broker.publish('sync.batch.DEAL', { n: 3 });
    await waitFor(async () => (await depth(namesOf(prefix, 'mapper.sync-batches').dead)) === 1, { message: 'the dead letter' });
    expect(attempts).toEqual([1, 2]);
  });

  it('when a message is poison, then it is dead-lettered at once, and redrive brings it back', async () => {
    const broker = await connect();
    const handled: { n: number }[] = [];
    let accept = false;
    await broker.consume<{ n: number }>(
      'mapper.sync-batches',
      async ({ body }) => void handled.push(body),
      (data) => (accept ? { ok: true, value: data as { n: number } } : validatePing(data)),
    );
    await broker.publish('sync.batch.PRODUCT', { n: 'not a number' });
    const dead = namesOf(prefix, 'mapper.sync-batches').dead;
    await waitFor(async () => (await depth(dead)) === 1, { message: 'the poison message in the dead-letter queue' });
    expect(handled).toEqual([]);

    accept = true; // the fix is deployed
    expect(await redriveDeadLetters(amqpUrl, prefix, 'mapper.sync-batches')).toBe(1);
    await waitFor(() => handled.length === 1, { message: 'the redriven message to be handled' });
    expect(handled).toEqual([{ n: 'not a number' }]);
    expect(await depth(dead)).toBe(0);
  });

  it('when messages arrive together, then a batch consumer gets them in one batch and retries only the failed one', async () => {
    const broker = await connect();
    const batches: number[][] = [];
    await broker.consumeBatches<{ n: number }>(
      'applier.mapped-changes',
      async (deliveries) => {
        batches.push(deliveries.map((delivery) => delivery.body.n));
        const failing = deliveries.find((delivery) => delivery.body.n === 3 && delivery.attempt === 1);
        return failing ? [{ delivery: failing, error: new Error('CRM unavailable') }] : [];
      },
      { maxBatch: 5, windowMs: 200 },
    );
    for (let n = 1; n <= 5; n++) await broker.publish('changes.mapped.CONTACT', { n });
    await waitFor(() => batches.length === 2, { message: 'the batch and the retry of the failed message' });
    expect(batches[0].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(batches[1]).toEqual([3]);
  });

  it('when the broker cancels a consumer (its queue was deleted), then the consumer comes back on a new channel of the same connection and consumes again', async () => {
    const recording = recordingLogger('warn');
    const broker = await connect({ logger: recording.logger });
    const handled: number[] = [];
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void handled.push(body.n));
    const connection = await amqplib.connect(amqpUrl);
    try {
      await (await connection.createChannel()).deleteQueue(namesOf(prefix, 'mapper.sync-batches').main);
    } finally {
      await connection.close();
    }
    let n = 0;
    // Until the new channel has declared the queue again, messages have nowhere to go.
    await waitFor(
      async () => {
        await broker.publish('sync.batch.CONTACT', { n: ++n });
        return handled.length > 0;
      },
      { intervalMs: 200, message: 'the consumer to be back' },
    );
    expect(recording.entries.map(({ message }) => message)).toEqual(['the broker cancelled a consumer; opening a new channel']);
  });

  describe('onDeadLetter', () => {
    /** Publishes bytes that are not JSON, as a broken sender would. */
    const publishRaw = async (routingKey: string, content: string, correlationId: string) => {
      const connection = await amqplib.connect(amqpUrl);
      try {
        const channel = await connection.createConfirmChannel();
        channel.publish(exchangeName(prefix), routingKey, Buffer.from(content), { persistent: true, headers: { 'x-correlation-id': correlationId } });
        await channel.waitForConfirms();
      } finally {
        await connection.close();
      }
    };

    it('when messages are dead-lettered, then the hook is called once per message with its error, its body (undefined when not JSON) and its attempt', async () => {
      const broker = await connect({ maxAttempts: 2 });
      const calls: { deadLetter: DeadLetter; error: Error }[] = [];
      await broker.consume<{ n: number }>(
        'mapper.sync-batches',
        async () => {
          throw new Error('CRM refused');
        },
        validatePing,
        { onDeadLetter: async (deadLetter, error) => void calls.push({ deadLetter, error }) },
      );
      await broker.publish('sync.batch.CONTACT', { n: 1 }, { correlationId: 'correlation-transient' });
      await broker.publish('sync.batch.CONTACT', { n: 'not a number' }, { correlationId: 'correlation-schema' });
      await publishRaw('sync.batch.CONTACT', 'not json', 'correlation-not-json');

      const dead = namesOf(prefix, 'mapper.sync-batches').dead;
      await waitFor(async () => (await depth(dead)) === 3, { message: 'three dead letters' });
      const byCorrelation = Object.fromEntries(
        calls.map(({ deadLetter, error }) => [deadLetter.correlationId, { body: deadLetter.body, attempt: deadLetter.attempt, error }]),
      );
      expect(calls).toHaveLength(3);
      expect(byCorrelation['correlation-transient']).toEqual({ body: { n: 1 }, attempt: 2, error: new Error('CRM refused') });
      expect(byCorrelation['correlation-schema']).toMatchObject({ body: { n: 'not a number' }, attempt: 1 });
      expect(byCorrelation['correlation-schema'].error).toBeInstanceOf(PoisonMessageError);
      expect(byCorrelation['correlation-not-json']).toMatchObject({ body: undefined, attempt: 1, error: new PoisonMessageError('message body is not JSON') });
    });

    it('when the hook fails, then the message goes to the retry queue instead of the dead-letter queue, and dead-letters once the hook succeeds', async () => {
      const broker = await connect({ maxAttempts: 2 });
      const attempts: number[] = [];
      let hookFailures = 0;
      let hookSuccesses = 0;
      let databaseUp = false;
      await broker.consume<{ n: number }>(
        'mapper.sync-batches',
        async ({ attempt }) => {
          attempts.push(attempt);
          throw new Error('CRM refused');
        },
        validatePing,
        {
          onDeadLetter: async () => {
            if (!databaseUp) {
              hookFailures++;
              throw new Error('database unreachable');
            }
            hookSuccesses++;
          },
        },
      );
      await broker.publish('sync.batch.CONTACT', { n: 1 });
      const { dead } = namesOf(prefix, 'mapper.sync-batches');
      await waitFor(() => hookFailures === 3, { message: 'the hook to fail three times' });
      expect(await depth(dead)).toBe(0);
      expect(attempts.slice(0, 4)).toEqual([1, 2, 2, 2]); // tried again after the delay, never beyond maxAttempts

      databaseUp = true;
      await waitFor(async () => (await depth(dead)) === 1, { message: 'the dead letter once the hook succeeds' });
      expect(hookSuccesses).toBe(1);
    });

    it('when a batch consumer dead-letters a delivery, then the hook is called for that delivery only', async () => {
      const broker = await connect({ maxAttempts: 1 });
      const deadLettered: unknown[] = [];
      const handled: number[] = [];
      await broker.consumeBatches<{ n: number }>(
        'applier.mapped-changes',
        async (deliveries) => {
          handled.push(...deliveries.map(({ body }) => body.n));
          return deliveries.filter(({ body }) => body.n === 2).map((delivery) => ({ delivery, error: new Error('CRM refused') }));
        },
        { maxBatch: 3, windowMs: 100 },
        undefined,
        { onDeadLetter: async ({ body }, error) => void deadLettered.push({ body, error: error.message }) },
      );
      for (let n = 1; n <= 3; n++) await broker.publish('changes.mapped.CONTACT', { n });
      const names = namesOf(prefix, 'applier.mapped-changes');
      await waitFor(async () => (await depth(names.dead)) === 1, { message: 'the dead letter' });
      expect(deadLettered).toEqual([{ body: { n: 2 }, error: 'CRM refused' }]);
      expect(handled.sort()).toEqual([1, 2, 3]);
      await broker.close();
      expect(await depth(names.main)).toBe(0);
    });
  });

  describe('redrive', () => {
    it('when the dead letters of several queues are redriven, then each queue says how many moved, and they are consumed again with their attempts reset', async () => {
      const broker = await connect({ maxAttempts: 1 });
      let healthy = false;
      const consumed: { queue: string; n: number; attempt: number }[] = [];
      const handler =
        (queue: string) =>
        async ({ body, attempt }: Delivery<{ n: number }>) => {
          if (!healthy) throw new Error('CRM refused');
          consumed.push({ queue, n: body.n, attempt });
        };
      await broker.consume('mapper.sync-batches', handler('mapper.sync-batches'));
      await broker.consume('webhook-dispatcher.requests', handler('webhook-dispatcher.requests'));
      await broker.publish('sync.batch.CONTACT', { n: 1 });
      await broker.publish('sync.batch.DEAL', { n: 2 });
      await broker.publish('webhooks.requested', { n: 3 });
      const sync = namesOf(prefix, 'mapper.sync-batches');
      const webhooks = namesOf(prefix, 'webhook-dispatcher.requests');
      await waitFor(async () => (await depth(sync.dead)) === 2 && (await depth(webhooks.dead)) === 1, { message: 'three dead letters in two queues' });

      healthy = true; // the cause is fixed
      const moved = await redriveAllDeadLetters(amqpUrl, prefix);
      expect(moved.filter(({ moved }) => moved > 0)).toEqual([
        { queue: 'mapper.sync-batches', moved: 2 },
        { queue: 'webhook-dispatcher.requests', moved: 1 },
      ]);
      await waitFor(() => consumed.length === 3, { message: 'the redriven messages to be consumed' });
      expect(consumed.sort((a, b) => a.n - b.n)).toEqual([
        { queue: 'mapper.sync-batches', n: 1, attempt: 1 },
        { queue: 'mapper.sync-batches', n: 2, attempt: 1 },
        { queue: 'webhook-dispatcher.requests', n: 3, attempt: 1 },
      ]);
      expect(await depth(sync.dead)).toBe(0);
      expect(await depth(webhooks.dead)).toBe(0);
    });

    it('when a redriven message is dead-lettered again at once, then the redrive ends after the messages that were there when it started', async () => {
      const broker = await connect();
      await broker.consume('mapper.sync-batches', async () => undefined, validatePing); // the fix is not deployed: still poison
      for (let n = 0; n < 3; n++) await broker.publish('sync.batch.PRODUCT', { n: 'not a number' });
      const { dead } = namesOf(prefix, 'mapper.sync-batches');
      await waitFor(async () => (await depth(dead)) === 3, { message: 'three poison messages in the dead-letter queue' });

      expect(await redriveDeadLetters(amqpUrl, prefix, 'mapper.sync-batches')).toBe(3);
      await waitFor(async () => (await depth(dead)) === 3, { message: 'them to be dead-lettered again' });
    });

    it('when every queue is redriven and a later one fails, then what the earlier ones moved was reported as each finished', async () => {
      await connect(); // declares the topology
      const admin = await amqplib.connect(amqpUrl);
      try {
        const channel = await admin.createConfirmChannel();
        channel.sendToQueue(namesOf(prefix, 'mapper.sync-batches').dead, Buffer.from(JSON.stringify({ n: 1 })), { persistent: true });
        await channel.waitForConfirms();
        await channel.deleteQueue(namesOf(prefix, 'alert-evaluator.notices').main);
      } finally {
        await admin.close();
      }
      const reported: { queue: string; moved: number }[] = [];

      await expect(redriveAllDeadLetters(amqpUrl, prefix, (result) => reported.push(result))).rejects.toThrow(/alert-evaluator\.notices does not exist/);

      expect(reported).toContainEqual({ queue: 'mapper.sync-batches', moved: 1 });
      expect(reported.map((result) => result.queue)).not.toContain('alert-evaluator.notices');
    });

    it('when the main queue is gone but its dead letters are kept, then redrive moves nothing and says so', async () => {
      const broker = await connect({ maxAttempts: 1 });
      await broker.consume('mapper.sync-batches', async () => {
        throw new Error('still failing');
      });
      await broker.publish('sync.batch.DEAL', { n: 9 });
      const names = namesOf(prefix, 'mapper.sync-batches');
      await waitFor(async () => (await depth(names.dead)) === 1, { message: 'the dead letter' });
      await broker.close(100);
      brokers.splice(0);
      const admin = await amqplib.connect(amqpUrl);
      try {
        await (await admin.createChannel()).deleteQueue(names.main);
      } finally {
        await admin.close();
      }

      await expect(redriveDeadLetters(amqpUrl, prefix, 'mapper.sync-batches')).rejects.toThrow(
        /\.mapper\.sync-batches does not exist \(its dead letters are kept\)/,
      );
      expect(await depth(names.dead)).toBe(1);
    });

    it('when copies are sent side by side on one channel, one to a queue that does not exist, then that one is refused as unroutable and the other stored', async () => {
      const admin = await amqplib.connect(amqpUrl);
      try {
        const channel = await admin.createConfirmChannel();
        const existing = uniqueName('test-copy-target');
        await channel.assertQueue(existing, { autoDelete: false, durable: false });
        try {
          const [missing, stored] = await Promise.allSettled([
            sendMandatory(channel, uniqueName('test-no-such-queue'), Buffer.from('{}'), { persistent: true }),
            sendMandatory(channel, existing, Buffer.from('{}'), { persistent: true }),
          ]);
          expect(missing).toMatchObject({ status: 'rejected', reason: expect.any(UnroutableCopyError) });
          expect(stored).toEqual({ status: 'fulfilled', value: undefined });
          expect((await channel.checkQueue(existing)).messageCount).toBe(1);
        } finally {
          await channel.deleteQueue(existing);
        }
      } finally {
        await admin.close();
      }
    });

    it('when the queues of a prefix were never declared, then redrive says so', async () => {
      await expect(redriveDeadLetters(amqpUrl, uniqueName('test-undeclared'), 'mapper.sync-batches')).rejects.toThrow(
        /does not exist: no service has declared the queues/,
      );
    });
  });
});
