import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, Options } from 'amqplib';
import { deferred, type Logger } from '@ecomm-sync/runtime';
import { ReopenLater } from './reopen-later';

export interface PublisherChannelOptions {
  logger: Logger;
  /** How long a publish waits for the broker's confirm (or for a channel while there is none). */
  publishTimeoutMs: number;
  /** Declares the topology; runs on every new channel before it publishes. */
  declare: (channel: ConfirmChannel) => Promise<void>;
  /** Wait before replacing a channel the broker closed while the connection stayed up. */
  reopenDelayMs: number;
}

/**
 * The confirm channel publishes go through. amqp-connection-manager opens a new channel only on
 * a reconnect: when the broker closes this one while the connection stays up (a 404 for an
 * exchange deleted under it, a 406 for a message over the broker's size limit), every later
 * publish would wait for a reconnect that the consumers' heartbeats never let come, and fail. This
 * opens a new channel instead, as ConsumerChannel does for consumers.
 */
export class PublisherChannel {
  private wrapper: ChannelWrapper;
  private readonly reopen: ReopenLater;
  private swapped = deferred();
  /** Whether the current channel is set up (topology declared) and not closed since. */
  private ready = false;

  constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly options: PublisherChannelOptions,
  ) {
    this.reopen = new ReopenLater(options.reopenDelayMs, () => {
      const previous = this.wrapper;
      this.wrapper = this.open();
      const { resolve } = this.swapped;
      this.swapped = deferred();
      resolve();
      void previous.close().catch(() => undefined);
    });
    this.wrapper = this.open();
  }

  /** Resolves once a channel is set up, the one opened anew if the first was closed meanwhile. */
  async waitForConnect(): Promise<void> {
    for (;;) {
      const wrapper = this.wrapper;
      await Promise.race([wrapper.waitForConnect(), this.swapped.promise]);
      if (wrapper === this.wrapper) return;
    }
  }

  /** True while a channel is set up to publish: false from its close until a new one declared the topology. */
  isOpen(): boolean {
    return this.ready;
  }

  publish(exchange: string, routingKey: string, content: Buffer, options: Options.Publish): Promise<boolean> {
    return this.wrapper.publish(exchange, routingKey, content, options);
  }

  async close(): Promise<void> {
    this.reopen.stop();
    await this.wrapper.close().catch(() => undefined);
  }

  private open(): ChannelWrapper {
    const { logger } = this.options;
    const wrapper: ChannelWrapper = this.connection.createChannel({
      name: 'publisher',
      confirm: true,
      publishTimeout: this.options.publishTimeoutMs,
      setup: async (channel: ConfirmChannel) => {
        let closedByBroker = false;
        // Without a listener, a channel closed by the broker would throw from amqplib's frame handler.
        channel.on('error', (error: Error) => {
          closedByBroker = true;
          logger.warn('the broker closed the publisher channel; opening a new one', { error: error.message });
        });
        channel.on('close', () => {
          if (this.wrapper !== wrapper) return;
          this.ready = false;
          if (closedByBroker) this.reopen.soon();
        });
        await this.options.declare(channel);
        if (this.wrapper === wrapper) this.ready = true;
      },
    });
    wrapper.on('error', (error: Error) => logger.error('publisher channel error', { error: error.message }));
    return wrapper;
  }
}
