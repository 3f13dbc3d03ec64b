import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@ecomm-sync/runtime';
import { ReopenLater } from './reopen-later';
import type { QueueNames } from './topology';

/**
 * The amqplib channel a message came on. Delivery tags are numbers local to a channel: an ack or
 * nack for this message is only meaningful here, and once the channel is gone the broker has put
 * the message back in its queue.
 */
export interface DeliverySource {
  channel: ConfirmChannel;
  /** The queue's name without the prefix (the `queue` label of its metrics). */
  queue: string;
  names: QueueNames;
  open: boolean;
  /** Closes this channel for a new one, whose setup declares the topology again (a queue deleted by hand); its unsettled deliveries return. */
  renew(): void;
}

export interface ConsumerChannelOptions {
  queue: string;
  names: QueueNames;
  prefetch: number;
  logger: Logger;
  /** Declares the topology; runs on every new channel before consuming. */
  declare: (channel: ConfirmChannel) => Promise<void>;
  onMessage: (message: ConsumeMessage, source: DeliverySource) => void;
  /** Wait before replacing a channel the broker closed while the connection stayed up. */
  reopenDelayMs: number;
}

/**
 * One queue's consumer on a channel of its own. It consumes inside the ChannelWrapper's setup, so
 * every (re)connect starts it again and each message arrives with the amqplib channel that
 * delivered it (ChannelWrapper.ack would send an old delivery tag on whatever channel is current).
 * If the broker closes the channel while the connection stays up (a channel error, a cancelled
 * consumer, a failed setup), ChannelWrapper would wait for the next reconnect; this opens a new one.
 */
export class ConsumerChannel {
  private wrapper: ChannelWrapper | undefined;
  private current: { source: DeliverySource; consumerTag: string } | undefined;
  private stopped = false;
  private readonly reopen: ReopenLater;
  private markConsuming: () => void = () => undefined;
  private readonly consuming = new Promise<void>((resolve) => (this.markConsuming = resolve));

  constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly options: ConsumerChannelOptions,
  ) {
    this.reopen = new ReopenLater(options.reopenDelayMs, () => {
      const previous = this.wrapper;
      this.open();
      void previous?.close().catch(() => undefined);
    });
  }

  /** Resolves once the consumer is registered with the broker. */
  start(): Promise<void> {
    this.open();
    return this.consuming;
  }

  /** Cancels the consumer; deliveries already received can still be settled on their channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reopen.stop();
    this.markConsuming();
    const current = this.current;
    this.current = undefined;
    if (current?.source.open) await current.source.channel.cancel(current.consumerTag).catch(() => undefined);
  }

  private open(): void {
    const { names, logger } = this.options;
    const wrapper = this.connection.createChannel({ name: `consumer ${names.main}`, confirm: true, setup: (channel: ConfirmChannel) => this.setup(channel) });
    wrapper.on('error', (error: Error) => logger.error('consumer channel error', { queue: names.main, error: error.message }));
    this.wrapper = wrapper;
  }

  private async setup(channel: ConfirmChannel): Promise<void> {
    const { names, prefetch, logger } = this.options;
    let closedByBroker = false;
    const source: DeliverySource = {
      channel,
      queue: this.options.queue,
      names,
      open: true,
      renew: () => {
        closedByBroker = true; // the close handler opens the next channel
        void channel.close().catch(() => undefined);
      },
    };
    // Without a listener, a channel closed by the broker would throw from amqplib's frame handler.
    channel.on('error', (error: Error) => {
      closedByBroker = true;
      logger.warn('the broker closed a consumer channel', { queue: names.main, error: error.message });
    });
    channel.on('close', () => {
      source.open = false;
      if (this.current?.source === source) this.current = undefined;
      if (closedByBroker) this.reopen.soon();
    });
    try {
      await this.options.declare(channel);
      await channel.prefetch(prefetch);
      if (this.stopped) return;
      const { consumerTag } = await channel.consume(names.main, (message) => {
        if (message) return this.options.onMessage(message, source);
        logger.warn('the broker cancelled a consumer; opening a new channel', { queue: names.main });
        closedByBroker = true;
        void channel.close().catch(() => undefined);
      });
      if (this.stopped) {
        await channel.cancel(consumerTag).catch(() => undefined);
        return;
      }
      this.current = { source, consumerTag };
      this.markConsuming();
    } catch (error) {
      // A channel that closed under the setup either lost its connection (the next connect runs
      // the setup again) or was closed by the broker (the close handler replaces it).
      if (!source.open) return;
      logger.error('starting a consumer failed; trying again on a new channel', { queue: names.main, error: String(error) });
      closedByBroker = true;
      await channel.close().catch(() => undefined);
    }
  }
}
