import amqplib from 'amqplib';
import { createValidator } from '@ecomm-sync/contracts';
import { createLogger } from '@ecomm-sync/logger';
import { testInfrastructure, uniqueName, waitFor } from '@ecomm-sync/testing';
import { purgeAndDeleteTopology, redriveDeadLetters } from './admin';
import { Broker, type Delivery } from './broker';
import { namesOf } from './topology';

const { amqpUrl } = testInfrastructure();
const logger = createLogger('broker-test', 'error');
const validatePing = createValidator<{ n: number }>({ type: 'object', required: ['n'], properties: { n: { type: 'integer' } } });

describe('Broker against a real RabbitMQ', () => {
  let prefix: string;
  const brokers: Broker[] = [];

  const connect = async (overrides: { maxAttempts?: number } = {}) => {
    const broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: overrides.maxAttempts ?? 3, logger });
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
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void handled.push(body), (data) =>
      accept ? { ok: true, value: data as { n: number } } : validatePing(data),
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
});
