import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { BrokerOptions } from './broker-types';
import { exchangeName } from './topology';

/**
 * Every running subscriber gets each message on `routingKey` (one exclusive, auto-deleted queue
 * per subscriber), at most once and only while connected: for telling replicas to drop cached
 * look-ups. `onConnect` runs on every (re)connect, since messages sent while disconnected are
 * missed.
 */
export async function subscribeAll(
  connection: AmqpConnectionManager,
  { prefix, logger }: Pick<BrokerOptions, 'prefix' | 'logger'>,
  { routingKey, handler, onConnect }: { routingKey: string; handler: (body: unknown) => void; onConnect: () => void },
): Promise<ChannelWrapper> {
  const exchange = exchangeName(prefix);
  const channel = connection.createChannel({
    name: `broadcast ${routingKey}`,
    setup: async (ch: ConfirmChannel) => {
      ch.on('error', (error: Error) => logger.warn('the broker closed a broadcast channel', { routingKey, error: error.message }));
      await ch.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
      await ch.bindQueue(queue, exchange, routingKey);
      await ch.consume(
        queue,
        (message) => {
          if (!message) return;
          try {
            handler(JSON.parse(message.content.toString('utf8')));
          } catch (error) {
            logger.warn('broadcast message ignored', { routingKey, error: String(error) });
          }
        },
        { noAck: true },
      );
      onConnect();
    },
  });
  channel.on('error', (error: Error) => logger.error('broadcast channel error', { routingKey, error: error.message }));
  await channel.waitForConnect();
  return channel;
}
