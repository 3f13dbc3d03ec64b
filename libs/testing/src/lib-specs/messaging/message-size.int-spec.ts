import { recordingLogger, testInfrastructure, uniqueName, waitFor, type LogEntry } from '../../support';
import { Broker, type Delivery, MessageTooLargeError, purgeAndDeleteTopology, type SplitBody } from '@ecomm-sync/messaging';

const { amqpUrl } = testInfrastructure();

interface Items {
  items: string[];
}
const halve: SplitBody = (body) => {
  const { items } = body as Items;
  return items.length < 2 ? null : [{ items: items.slice(0, items.length / 2) }, { items: items.slice(items.length / 2) }];
};

/** RabbitMQ 4 refuses a body above 16 MiB by closing the publisher channel; the broker splits or refuses one first (message-size.ts). */
describe('Broker message size against a real RabbitMQ', () => {
  let prefix: string;
  let broker: Broker;
  let received: Delivery<Items>[];
  let logged: LogEntry[];

  beforeEach(async () => {
    prefix = uniqueName('test-size');
    const { logger, entries } = recordingLogger('warn');
    logged = entries;
    broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger, maxMessageBytes: 2_000 });
    received = [];
    await broker.consume<Items>('mapper.sync-batches', async (delivery) => void received.push(delivery));
  });

  afterEach(async () => {
    await broker?.close(100);
    await purgeAndDeleteTopology(amqpUrl, prefix);
  });

  it('when a body is larger than the broker takes and can be split, then it goes as several messages, each within the limit, nothing lost', async () => {
    const items = Array.from({ length: 16 }, (_, n) => `${n}`.padStart(300, '.'));

    await broker.publish('sync.batch.CONTACT', { items }, { split: halve });

    await waitFor(() => received.flatMap((delivery) => delivery.body.items).length === items.length, { message: 'every item delivered' });
    expect(received.length).toBeGreaterThan(1);
    expect(received.every((delivery) => delivery.raw.content.length <= 2_000)).toBe(true);
    expect(received.flatMap((delivery) => delivery.body.items).sort()).toEqual([...items].sort());
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'a message larger than the broker takes was split',
        routingKey: 'sync.batch.CONTACT',
        maxBytes: 2_000,
        messages: received.length,
        cutDown: 0,
      }),
    ]);
  });

  it('when a body is cut down to fit, then it is sent in its place and the log says one part was cut down', async () => {
    const shorten: SplitBody = (_body, bytes, maxBytes) => [{ items: [`left out: ${bytes} > ${maxBytes}`] }];

    await broker.publish('sync.batch.CONTACT', { items: ['x'.repeat(3_000)] }, { split: shorten });

    await waitFor(() => received.length === 1, { message: 'the cut-down message delivered' });
    expect(received[0].body.items).toEqual([expect.stringMatching(/^left out: 3\d{3} > 2000$/)]);
    expect(logged).toEqual([expect.objectContaining({ message: 'a message larger than the broker takes was split', messages: 1, cutDown: 1 })]);
  });

  it('when a body is larger than the broker takes and cannot be split, then the publish fails saying so, and the broker goes on publishing', async () => {
    const large = { items: ['x'.repeat(3_000)] };

    await expect(broker.publish('sync.batch.CONTACT', large, { split: halve })).rejects.toThrow(MessageTooLargeError);
    await expect(broker.publish('sync.batch.CONTACT', large)).rejects.toThrow(/of 3\d{3} bytes is larger than the broker takes \(2000 bytes\)/);
    await broker.publish('sync.batch.CONTACT', { items: ['small'] });

    await waitFor(() => received.length === 1, { message: 'the small message delivered' });
    expect(received.map((delivery) => delivery.body.items)).toEqual([['small']]);
  });
});
