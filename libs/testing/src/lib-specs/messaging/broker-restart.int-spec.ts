import amqplib, { type GetMessage } from 'amqplib';
import { deferred, recordingLogger, startPrivateRabbitMq, uniqueName, waitFor, type LogEntry, type PrivateRabbitMq } from '../../support';
import { Broker, type BrokerOptions, namesOf, purgeAndDeleteTopology, type QueueName } from '@ecomm-sync/messaging';

// Each restart of the node takes a few seconds.
jest.setTimeout(120_000);

describe('Broker when its RabbitMQ node is killed and started again', () => {
  let node: PrivateRabbitMq;
  let prefix: string;
  let logs: LogEntry[];
  let options: BrokerOptions;
  const brokers: Broker[] = [];

  const connect = async (overrides: Partial<BrokerOptions> = {}) => {
    const broker = await Broker.connect({ ...options, ...overrides });
    brokers.push(broker);
    return broker;
  };

  /** Ready messages of a queue (unacked ones are not counted; they come back when their consumer goes). */
  const depth = async (queue: string) => {
    const connection = await amqplib.connect(node.url);
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  };

  const expectAllAcked = async (queue: QueueName) => {
    await Promise.all(brokers.splice(0).map((broker) => broker.close(1_000)));
    const names = namesOf(prefix, queue);
    expect({ main: await depth(names.main), retry: await depth(names.retry), dead: await depth(names.dead) }).toEqual({ main: 0, retry: 0, dead: 0 });
  };

  const dropped = () => logs.filter((entry) => entry.message.startsWith('ack dropped'));
  const errors = () => logs.filter((entry) => entry.level === 'error');
  const disconnects = () => logs.filter((entry) => entry.message === 'broker disconnected');

  /**
   * With the first handlings of messages 1–5 held by `release`: kills and restarts the node, then
   * expects the five to be delivered again and handled, the held handlings to end with their late
   * acks dropped, a message published afterwards (6, on `routingKey`) handled, and `queue` empty.
   */
  const expectHandledAgainAfterRestart = async (broker: Broker, routingKey: string, queue: QueueName, finished: number[], release: () => void) => {
    await node.kill();
    await node.restart();
    await waitFor(() => finished.length === 5, { message: 'the five messages to be delivered again and handled after the restart' });
    release(); // the handlings from before the crash end now, holding delivery tags of a channel that is gone
    await waitFor(() => finished.length === 10, { message: 'the handlings from before the crash to end' });

    await broker.publish(routingKey, { n: 6 });
    await waitFor(() => finished.includes(6), { message: 'a message published after the restart to be handled' });
    expect([...finished].sort()).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    // The kill, once per connection (consuming, publishing); a stale tag (406) would close the channel and, unheard, the connection.
    expect(
      disconnects()
        .map((entry) => entry.role)
        .sort(),
    ).toEqual(['consuming', 'publishing']);
    expect(errors()).toEqual([]);
    expect(dropped()).toHaveLength(5);
    await expectAllAcked(queue);
  };

  beforeAll(async () => {
    node = await startPrivateRabbitMq();
  });

  afterAll(async () => {
    await node?.stop();
  });

  beforeEach(() => {
    prefix = uniqueName('test-restart');
    const recording = recordingLogger('warn');
    logs = recording.entries;
    options = { url: node.url, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger: recording.logger };
  });

  afterEach(async () => {
    if (!node.isRunning()) await node.restart(); // a test that failed halfway may leave it down
    await Promise.all(brokers.splice(0).map((broker) => broker.close(100)));
    await purgeAndDeleteTopology(node.url, prefix);
  });

  it('when handlers are still running as the node is killed and restarted, then their late acks are dropped, every message is handled and acked, and publishing goes on', async () => {
    const broker = await connect();
    const seen = new Set<number>();
    const finished: number[] = [];
    const release = deferred();
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => {
      const first = !seen.has(body.n);
      seen.add(body.n);
      if (first) await release.promise; // the first delivery of each message is still being handled when the node dies
      finished.push(body.n);
    });
    for (let n = 1; n <= 5; n++) await broker.publish('sync.batch.CONTACT', { n });
    await waitFor(() => seen.size === 5, { message: 'five handlers to be running' });

    await expectHandledAgainAfterRestart(broker, 'sync.batch.CONTACT', 'mapper.sync-batches', finished, release.resolve);
  });

  it('when batch handlers are still running as the node is killed and restarted, then their late acks are dropped, every message is handled and acked, and publishing goes on', async () => {
    const broker = await connect();
    const seen = new Set<number>();
    const finished: number[] = [];
    const release = deferred();
    await broker.consumeBatches<{ n: number }>(
      'applier.mapped-changes',
      async (deliveries) => {
        const first = deliveries.some(({ body }) => !seen.has(body.n));
        for (const { body } of deliveries) seen.add(body.n);
        if (first) await release.promise;
        finished.push(...deliveries.map(({ body }) => body.n));
      },
      { maxBatch: 5, windowMs: 50 },
    );
    for (let n = 1; n <= 5; n++) await broker.publish('changes.mapped.CONTACT', { n });
    await waitFor(() => seen.size === 5, { message: 'the batch handler to be running with all five' });

    await expectHandledAgainAfterRestart(broker, 'changes.mapped.CONTACT', 'applier.mapped-changes', finished, release.resolve);
  });

  it('when a handler fails while the node is down, then its retry is dropped with the channel, and the message is delivered again after the restart and handled', async () => {
    const broker = await connect();
    const attempts: number[] = [];
    const release = deferred();
    let handled = 0;
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ attempt }) => {
      attempts.push(attempt);
      if (attempts.length === 1) {
        await release.promise;
        throw new Error('database unreachable'); // fails after the node died: its retry copy cannot go out on that channel
      }
      handled++;
    });
    await broker.publish('sync.batch.CONTACT', { n: 1 });
    await waitFor(() => attempts.length === 1, { message: 'the handler to be running' });

    await node.kill();
    release.resolve();
    await node.restart();
    await waitFor(() => handled === 1, { message: 'the message to be delivered again and handled' });
    expect(errors()).toEqual([]);
    await expectAllAcked('mapper.sync-batches');
  });

  it('when a bulk delivery is held as the node is killed, then the hold’s end does not hand it over from the dead channel: it is delivered again after the restart and handled once', async () => {
    const broker = await connect({ bulkHoldMs: 600_000 }); // longer than the test: only the interactive work's end releases it;
    const seen = new Set<string>();
    const handled: string[] = [];
    const release = deferred();
    await broker.consume<{ n: string }>('mapper.sync-batches', async ({ body }) => {
      const first = !seen.has(body.n);
      seen.add(body.n);
      // The interactive message's first delivery is still being handled when the node dies: bulk deliveries are held meanwhile.
      if (first && body.n === 'interactive') await release.promise;
      handled.push(body.n);
    });
    await broker.publish('sync.batch.CONTACT', { n: 'interactive' }, { lane: 'interactive' });
    await waitFor(() => seen.has('interactive'), { message: 'the interactive handler to be running' });
    await broker.publish('sync.batch.CONTACT', { n: 'bulk' }, { lane: 'bulk' });
    await waitFor(() => broker.heldBulkDeliveries === 1, { message: 'the bulk delivery to be held' });

    await node.kill();
    await node.restart();
    // Both come again on new channels: the interactive one is handled, the bulk one held again (the first interactive handler still runs).
    await waitFor(() => handled.includes('interactive') && broker.heldBulkDeliveries === 2, {
      message: 'the interactive message to be handled again and the bulk one held again',
    });
    release.resolve(); // the last interactive work ends: both held deliveries are handed over, the one of the dead channel dropped
    await waitFor(() => handled.length >= 3 && broker.heldBulkDeliveries === 0, { message: 'the held deliveries to be handed over' });

    expect([...handled].sort()).toEqual(['bulk', 'interactive', 'interactive']);
    expect(errors()).toEqual([]);
    expect(dropped()).toHaveLength(1); // the first interactive handler's late ack
    await expectAllAcked('mapper.sync-batches');
  });

  it('when the node is down, then publishes wait for it up to publishTimeoutMs and fail cleanly, connect keeps trying until connectTimeoutMs, and both succeed once it is back', async () => {
    const quick = await connect({ publishTimeoutMs: 1_000 });
    const patient = await connect({ publishTimeoutMs: 60_000 });
    const consumed: number[] = [];
    await patient.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => void consumed.push(body.n));

    await node.kill();
    await expect(quick.publish('sync.batch.CONTACT', { n: 1 })).rejects.toThrow(
      'publishing sync.batch.CONTACT failed (disconnected): not confirmed within 1000 ms',
    );
    await expect(Broker.connect({ ...options, connectTimeoutMs: 1_000 })).rejects.toThrow(
      /RabbitMQ did not answer at amqp:\/\/\*\*\*@127\.0\.0\.1:\d+ within 1000 ms/,
    );
    const waiting = patient.publish('sync.batch.CONTACT', { n: 2 }).then(
      () => 'confirmed',
      (error: Error) => error.message,
    );
    const connecting = connect({ connectTimeoutMs: 60_000 });
    await node.restart();

    expect(await waiting).toBe('confirmed');
    await (await connecting).publish('sync.batch.CONTACT', { n: 3 });
    await quick.publish('sync.batch.CONTACT', { n: 4 });
    await waitFor(() => consumed.length === 3, { message: 'the messages published around the restart to be consumed' });
    expect(consumed.sort()).toEqual([2, 3, 4]);
    expect(errors()).toEqual([]);
  });

  it('when a delivery tag of a closed channel is acked on a new channel, then RabbitMQ closes that channel with 406 (why acks stay on the channel that delivered)', async () => {
    const connection = await amqplib.connect(node.url);
    try {
      const first = await connection.createChannel();
      const { queue } = await first.assertQueue('', { exclusive: true });
      first.sendToQueue(queue, Buffer.from('{}'));
      const stale = await waitFor<GetMessage>(() => first.get(queue), { message: 'the message' });
      await first.close(); // the message goes back to its queue

      const second = await connection.createChannel();
      const closed = new Promise<Error & { code?: number }>((resolve) => second.once('error', resolve));
      second.ack(stale);
      const error = await closed;
      expect(error.code).toBe(406);
      expect(error.message).toContain('PRECONDITION_FAILED - unknown delivery tag 1');
    } finally {
      await connection.close();
    }
  });
});
