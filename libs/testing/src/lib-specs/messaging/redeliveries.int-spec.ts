import amqplib from 'amqplib';
import { createLogger } from '@ecomm-sync/runtime';
import { testInfrastructure, uniqueName, waitFor } from '../../support';
import {
  Broker,
  type DeadLetter,
  type Delivery,
  HOOKLESS_LIMIT,
  namesOf,
  purgeAndDeleteTopology,
  REDELIVERY_LIMIT,
  redriveDeadLetters,
} from '@ecomm-sync/messaging';

const { amqpUrl } = testInfrastructure();
const logger = createLogger('redeliveries-test', 'error');

/**
 * Messages the broker delivered again and again without their consumer settling them (a crash
 * loop): on RabbitMQ 4 a quorum queue drops such a message past its delivery limit, so the
 * consumer counts them as a failed attempt first, whose copy starts the broker's count again.
 */
describe('Broker redeliveries against a real RabbitMQ', () => {
  let prefix: string;
  let broker: Broker | undefined;
  let admin: amqplib.ChannelModel;

  beforeEach(async () => {
    prefix = uniqueName('test-redeliveries');
    admin = await amqplib.connect(amqpUrl);
  });

  afterEach(async () => {
    await broker?.close(100);
    broker = undefined;
    await admin.close();
    await purgeAndDeleteTopology(amqpUrl, prefix);
  });

  const connect = async (maxAttempts = 3) => {
    broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts, logger });
    return broker;
  };

  /**
   * Takes the next message of the queue and closes the channel holding it unacked, as a consumer
   * that died does: the broker counts a delivery. The queue takes it back after the close has
   * answered (a quorum queue's log), so each take waits for it to be there again.
   */
  const returnUnsettled = async (queue: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const channel = await admin.createChannel();
      await waitFor(async () => (await channel.get(queue, { noAck: false })) || undefined, { message: `the message back in ${queue} (take ${i + 1})` });
      await channel.close();
    }
  };

  const depth = async (queue: string) => {
    const channel = await admin.createChannel();
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await channel.close();
    }
  };

  /** Declares the topology and leaves a message in the main queue, with no consumer running. */
  const publishWithoutConsumer = async (n: number) => {
    const publisher = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger });
    try {
      await publisher.publish('sync.batch.CONTACT', { n });
    } finally {
      await publisher.close(0);
    }
  };

  it('when a message came back unsettled as often as the limit, then it counts as a failed attempt: its copy comes back from the retry queue without the count, to its handler', async () => {
    const names = namesOf(prefix, 'mapper.sync-batches');
    await publishWithoutConsumer(1);
    await returnUnsettled(names.main, REDELIVERY_LIMIT);

    const handled: Delivery<{ n: number }>[] = [];
    await (await connect()).consume<{ n: number }>('mapper.sync-batches', async (delivery) => void handled.push(delivery));
    await waitFor(() => handled.length === 1, { message: 'the retried copy to be handled' });
    expect(handled[0].body).toEqual({ n: 1 });
    expect(handled[0].attempt).toBe(2);
    expect(handled[0].raw.properties.headers).not.toHaveProperty('x-delivery-count');
    expect(String(handled[0].raw.properties.headers?.['x-last-error'])).toMatch(new RegExp(`returned to its queue unsettled ${REDELIVERY_LIMIT} times`));
  });

  it('when a message came back unsettled as often as the limit on its last attempt, then it is dead-lettered with the reason, its hook runs and its handler does not', async () => {
    const names = namesOf(prefix, 'mapper.sync-batches');
    await publishWithoutConsumer(2);
    await returnUnsettled(names.main, REDELIVERY_LIMIT);

    const handled: number[] = [];
    const deadLetters: { deadLetter: DeadLetter; error: Error }[] = [];
    await (
      await connect(1)
    ).consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void handled.push(body.n), undefined, {
      onDeadLetter: async (deadLetter, error) => void deadLetters.push({ deadLetter, error }),
    });
    await waitFor(async () => (await depth(names.dead)) === 1, { message: 'the message in the dead-letter queue' });
    expect(handled).toEqual([]);
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0].deadLetter.body).toEqual({ n: 2 });
    expect(deadLetters[0].error.message).toMatch(new RegExp(`returned to its queue unsettled ${REDELIVERY_LIMIT} times: its consumer stopped`));
  });

  it.each([
    ['fourteen times, one fewer than the hookless limit', HOOKLESS_LIMIT - 1, 1],
    ['fifteen times, the hookless limit (its hook may be what stops the consumer)', HOOKLESS_LIMIT, 0],
  ])(
    'when a message on its last attempt came back unsettled %s, then it is dead-lettered, its hook run as often as the table says',
    async (_case, returns, hooks) => {
      const names = namesOf(prefix, 'mapper.sync-batches');
      await publishWithoutConsumer(12);
      await returnUnsettled(names.main, returns);

      const hooked: DeadLetter[] = [];
      await (
        await connect(1)
      ).consume<{ n: number }>('mapper.sync-batches', async () => undefined, undefined, {
        onDeadLetter: async (deadLetter) => void hooked.push(deadLetter),
      });
      await waitFor(async () => (await depth(names.dead)) === 1, { message: 'the message in the dead-letter queue' });
      expect(hooked).toHaveLength(hooks);
      expect(await depth(names.main)).toBe(0);
    },
  );

  it('when a message came back unsettled fewer times than the limit, then its handler gets it', async () => {
    const names = namesOf(prefix, 'mapper.sync-batches');
    await publishWithoutConsumer(3);
    await returnUnsettled(names.main, REDELIVERY_LIMIT - 1);

    const handled: Delivery<{ n: number }>[] = [];
    await (await connect()).consume<{ n: number }>('mapper.sync-batches', async (delivery) => void handled.push(delivery));
    await waitFor(() => handled.length === 1, { message: 'the message to be handled' });
    expect(handled[0].body).toEqual({ n: 3 });
    expect(handled[0].attempt).toBe(1);
    expect(handled[0].raw.properties.headers?.['x-delivery-count']).toBe(REDELIVERY_LIMIT - 1);
  });

  it('when a dead letter that carries a delivery count is redriven, then its copy carries none and is handled', async () => {
    const names = namesOf(prefix, 'mapper.sync-batches');
    await publishWithoutConsumer(4);
    const channel = await admin.createConfirmChannel();
    // As an older release's dead-letter copy was: the count copied from the delivery that failed.
    channel.sendToQueue(names.dead, Buffer.from(JSON.stringify({ n: 5 })), {
      persistent: true,
      headers: { 'x-attempt': 3, 'x-delivery-count': REDELIVERY_LIMIT },
    });
    await channel.waitForConfirms();
    await channel.close();

    expect(await redriveDeadLetters(amqpUrl, prefix, 'mapper.sync-batches')).toBe(1);
    const handled: Delivery<{ n: number }>[] = [];
    await (await connect()).consume<{ n: number }>('mapper.sync-batches', async (delivery) => void handled.push(delivery));
    await waitFor(() => handled.length === 2, { message: 'the published and the redriven message to be handled' });
    const redriven = handled.find((delivery) => delivery.body.n === 5)!;
    expect(redriven.attempt).toBe(1);
    expect(redriven.raw.properties.headers).not.toHaveProperty('x-delivery-count');
    // A redriven message may have been set aside before; a first delivery was not.
    expect([redriven.triedBefore, handled.find((delivery) => delivery.body.n === 4)!.triedBefore]).toEqual([true, false]);
  });

  it('when a message that came back unsettled fails and is retried, then the retried copy carries no delivery count', async () => {
    const names = namesOf(prefix, 'mapper.sync-batches');
    await publishWithoutConsumer(6);
    await returnUnsettled(names.main, REDELIVERY_LIMIT - 1);

    const deliveries: Delivery<{ n: number }>[] = [];
    await (
      await connect()
    ).consume<{ n: number }>('mapper.sync-batches', async (delivery) => {
      deliveries.push(delivery);
      if (delivery.attempt === 1) throw new Error('database unreachable');
    });
    await waitFor(() => deliveries.length === 2, { message: 'the retried message to come back' });
    expect(deliveries[0].raw.properties.headers?.['x-delivery-count']).toBe(REDELIVERY_LIMIT - 1);
    expect(deliveries[1].attempt).toBe(2);
    expect(deliveries[1].raw.properties.headers).not.toHaveProperty('x-delivery-count');
    expect(deliveries.map((delivery) => delivery.triedBefore)).toEqual([true, true]); // delivered again, then retried
  });
});
