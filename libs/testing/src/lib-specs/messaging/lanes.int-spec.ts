import amqplib from 'amqplib';
import { createLogger } from '@ecomm-sync/runtime';
import { testInfrastructure, uniqueName, waitFor } from '../../support';
import { Broker, type BrokerOptions, namesOf, purgeAndDeleteTopology } from '@ecomm-sync/messaging';

const { amqpUrl } = testInfrastructure();
const logger = createLogger('lanes-test', 'error');

describe('Interactive and bulk lanes against a real RabbitMQ', () => {
  let prefix: string;
  const brokers: Broker[] = [];

  const connect = async (overrides: Partial<BrokerOptions> = {}) => {
    const broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, bulkPrefetch: 1, retryDelayMs: 100, maxAttempts: 3, logger, ...overrides });
    brokers.push(broker);
    return broker;
  };

  const depth = async (queue: string) => {
    const connection = await amqplib.connect(amqpUrl);
    try {
      return (await (await connection.createChannel()).checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  };

  beforeEach(() => {
    prefix = uniqueName('test-lanes');
  });

  afterEach(async () => {
    await Promise.all(brokers.splice(0).map((broker) => broker.close(100)));
    await purgeAndDeleteTopology(amqpUrl, prefix);
  });

  it('when a backlog waits in the bulk lane, then a message on the interactive lane is handled while the backlog is still there', async () => {
    const broker = await connect();
    for (let n = 0; n < 30; n++) await broker.publish('sync.batch.CONTACT', { n }, { lane: 'bulk' });
    await broker.publish('sync.batch.CONTACT', { n: 'interactive' }, { lane: 'interactive' });
    let interactiveSeen!: () => void;
    const seen = new Promise<void>((resolve) => (interactiveSeen = resolve));
    const handled: { n: unknown; lane: string }[] = [];
    // A bulk message's handler finishes only once the interactive one was handled: in one shared
    // queue the interactive message would sit behind the backlog, and nothing would finish.
    await broker.consume<{ n: unknown }>('mapper.sync-batches', async ({ body, lane }) => {
      handled.push({ n: body.n, lane });
      if (lane === 'interactive') interactiveSeen();
      else await seen;
    });

    await waitFor(() => handled.length === 31, { timeoutMs: 20_000, message: 'every message to be handled' });
    expect(handled.findIndex(({ lane }) => lane === 'interactive')).toBeLessThan(2);
    expect(handled.filter(({ lane }) => lane === 'bulk')).toHaveLength(30);
  });

  it('when interactive work runs in the process, then a bulk delivery that arrives meanwhile starts only once it is done', async () => {
    const broker = await connect({ bulkHoldMs: 60_000 });
    const started: string[] = [];
    let finishInteractive!: () => void;
    const interactiveDone = new Promise<void>((resolve) => (finishInteractive = resolve));
    await broker.consume<{ n: string }>('mapper.sync-batches', async ({ body, lane }) => {
      started.push(body.n);
      if (lane === 'interactive') await interactiveDone;
    });

    await broker.publish('sync.batch.CONTACT', { n: 'interactive' }, { lane: 'interactive' });
    await waitFor(() => started.includes('interactive'), { message: 'the interactive handler to start' });
    await broker.publish('sync.batch.CONTACT', { n: 'bulk' }, { lane: 'bulk' });
    // Delivered to this process, but held.
    await waitFor(() => broker.heldBulkDeliveries === 1, { message: 'the bulk message to be held' });
    expect(started).toEqual(['interactive']);

    finishInteractive();
    await waitFor(() => started.includes('bulk'), { message: 'the bulk handler to start once the interactive one is done' });
    expect(started).toEqual(['interactive', 'bulk']);
    expect(broker.heldBulkDeliveries).toBe(0);
  });

  it('when interactive work runs longer than the hold, then a held bulk delivery goes on: bulk work never starves', async () => {
    const broker = await connect({ bulkHoldMs: 200 });
    const started: string[] = [];
    let bulkStarted!: () => void;
    const bulkSeen = new Promise<void>((resolve) => (bulkStarted = resolve));
    // The interactive handler finishes only once the bulk one started: without the hold's end, neither would.
    await broker.consume<{ n: string }>('mapper.sync-batches', async ({ body, lane }) => {
      started.push(body.n);
      if (lane === 'interactive') await bulkSeen;
      else bulkStarted();
    });

    await broker.publish('sync.batch.CONTACT', { n: 'interactive' }, { lane: 'interactive' });
    await waitFor(() => started.includes('interactive'), { message: 'the interactive handler to start' });
    await broker.publish('sync.batch.CONTACT', { n: 'bulk' }, { lane: 'bulk' });

    await waitFor(() => started.includes('bulk'), { message: 'the bulk handler to start after the hold' });
    expect(started).toEqual(['interactive', 'bulk']);
  });

  it('when a bulk message is handled, then what its handler publishes goes on the bulk lane too', async () => {
    const broker = await connect();
    await broker.consume<{ n: number }>('mapper.sync-batches', ({ body }) => broker.publish('changes.mapped.CONTACT', { n: body.n }));
    const applier = namesOf(prefix, 'applier.mapped-changes');

    await broker.publish('sync.batch.CONTACT', { n: 1 }, { lane: 'bulk' });
    await broker.publish('sync.batch.CONTACT', { n: 2 }, { lane: 'interactive' });

    await waitFor(async () => (await depth(applier.bulk!)) === 1 && (await depth(applier.main)) === 1, { message: 'one mapped message in each lane' });
  });

  it('when the work of a bulk-work queue publishes sync batches, then they go bulk; topics without lanes are routed as ever', async () => {
    const broker = await connect();
    const mapper = namesOf(prefix, 'mapper.sync-batches');
    await broker.consume('mapper.settings-work', async () => {
      await broker.publish('sync.batch.DEAL', { n: 1 });
      await broker.publish('webhooks.requested', { n: 2 });
    });

    await broker.publish('settings.changed', { kind: 'settings-changed' }, { lane: 'bulk' });

    const webhooks = namesOf(prefix, 'webhook-dispatcher.requests');
    await waitFor(async () => (await depth(mapper.bulk!)) === 1 && (await depth(webhooks.main)) === 1, {
      message: 'the batch bulk, the webhook request routed',
    });
    expect(await depth(mapper.main)).toBe(0);
  });

  it('when a bulk message fails once, then it comes back by the shared retry queue and succeeds', async () => {
    const broker = await connect();
    const attempts: { attempt: number; lane: string }[] = [];
    await broker.consume('mapper.sync-batches', async ({ attempt, lane }) => {
      attempts.push({ attempt, lane });
      if (attempt === 1) throw new Error('database unreachable');
    });

    await broker.publish('sync.batch.CONTACT', { n: 1 }, { lane: 'bulk' });

    await waitFor(() => attempts.length === 2, { message: 'the retried delivery' });
    expect(attempts).toEqual([
      { attempt: 1, lane: 'bulk' },
      { attempt: 2, lane: 'interactive' },
    ]);
  });
});
