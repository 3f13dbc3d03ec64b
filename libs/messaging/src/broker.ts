import { randomUUID } from 'node:crypto';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConsumeMessage } from 'amqplib';
import type { Lane, Validation } from '@ecomm-sync/contracts';
import { currentLogContext, inSpan, logContext, registerQueueDepths } from '@ecomm-sync/runtime';
import { ConsumerChannel } from './consumer-channel';
import { BlockedGate, managedConnection, RECONNECT_SECONDS, redact } from './managed-connection';
import { PublisherChannel } from './publisher-channel';
import { QueueDepthProbe } from './queue-depth';
import { newMessageHeaders } from './message-headers';
import { Settlement, type ConsumeOptions } from './settlement';
import { parseDelivery } from './parse-delivery';
import { BatchCollector, handleBatch } from './batch-collector';
import { LanePriority } from './lane-priority';
import { subscribeAll } from './broadcast';
import { declareTopology, exchangeName, lanesOf, namesOf, routingKeyOn, type QueueName, type QueueNames } from './topology';
import { withTimeout } from './with-timeout';
import { encodedWithin, MAX_MESSAGE_BYTES } from './message-size';
import type { BatchHandler, BatchOptions, BrokerOptions, MessageHandler, PublishOptions } from './broker-types';

export type { BatchHandler, BatchOptions, BrokerOptions, Delivery, MessageHandler, PublishOptions } from './broker-types';

/**
 * RabbitMQ through amqp-connection-manager: the topology is declared in each channel's setup
 * (so it is re-declared after a reconnect), publishes go through confirm channels and resolve
 * only once the broker confirmed them, and consumers ack only after their handler succeeded.
 *
 * A message is acked, nacked or moved to its retry or dead-letter queue on the channel that
 * delivered it, never on another: after a reconnect, its delivery tag means nothing (406, which
 * closes the channel) or, worse, another message. When that channel is gone, the settlement is
 * dropped and the broker delivers the message again.
 */
export class Broker {
  private readonly consumers: ConsumerChannel[] = [];
  private readonly broadcasts: ChannelWrapper[] = [];
  private readonly pendingBatches: (() => void)[] = [];
  private readonly settlement: Settlement;
  private readonly consumed: { queue: QueueName; names: QueueNames }[] = [];
  private readonly depthProbe: QueueDepthProbe;
  private readonly unregisterDepths: () => void;
  private readonly priority: LanePriority;
  private inFlight = 0;
  private closing = false;

  private constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly publishing: AmqpConnectionManager,
    private readonly publisher: PublisherChannel,
    private readonly options: BrokerOptions,
  ) {
    // A failed message's retry or dead-letter copy is sent on the channel that delivered it (decision
    // 17), on the consuming connection: while RabbitMQ blocks publishing (a memory or disk alarm) it
    // waits, or the consuming connection would be blocked too, and every ack on it with it.
    const blocked = new BlockedGate(publishing);
    this.settlement = new Settlement(options.maxAttempts, options.logger, () => blocked.whenFree());
    this.priority = new LanePriority(options.bulkHoldMs ?? 0, (error) =>
      options.logger.error('handing over a held bulk delivery failed', { error: String(error) }),
    );
    this.depthProbe = new QueueDepthProbe(connection, () => this.consumed);
    this.unregisterDepths = registerQueueDepths(() => (this.consumed.length > 0 ? this.depthProbe.read() : Promise.resolve([])));
  }

  /**
   * Keeps trying to reach RabbitMQ for `connectTimeoutMs`, then fails. Once connected, it reconnects
   * for ever. Publishes go on a connection of their own: under a memory or disk alarm RabbitMQ stops
   * reading from every connection that publishes, and on a shared one the consumers' acks would
   * stop too, so that no queue could drain (RabbitMQ's advice: separate connections).
   */
  static async connect(options: BrokerOptions): Promise<Broker> {
    const connection = managedConnection(options, 'consuming');
    const publishing = managedConnection(options, 'publishing');
    const publisher = new PublisherChannel(publishing, {
      logger: options.logger,
      publishTimeoutMs: options.publishTimeoutMs ?? 10_000,
      declare: (channel) => declareTopology(channel, options.prefix, options.retryDelayMs),
      reopenDelayMs: RECONNECT_SECONDS * 1000,
    });
    try {
      await withTimeout(publisher.waitForConnect(), options.connectTimeoutMs ?? 30_000, `RabbitMQ did not answer at ${redact(options.url)}`);
    } catch (error) {
      await publisher.close();
      await Promise.all([connection.close().catch(() => undefined), publishing.close().catch(() => undefined)]);
      throw error;
    }
    return new Broker(connection, publishing, publisher, options);
  }

  /** Both connections up and a publisher channel set up (readiness: a service that cannot publish is not ready). */
  isConnected(): boolean {
    return this.connection.isConnected() && this.publishing.isConnected() && this.publisher.isOpen();
  }

  names(queue: QueueName): QueueNames {
    return namesOf(this.options.prefix, queue);
  }

  /**
   * Publishes a persistent JSON message to the events exchange; resolves when the broker confirmed
   * it. While disconnected, the message waits for the connection up to `publishTimeoutMs`. The
   * message carries the current trace (a new one outside any) and the time its data was accepted
   * (now, unless the current work carries an earlier one); it goes on the lane asked for, else the
   * current work's (topology.ts).
   */
  async publish(routingKey: string, body: unknown, { lane, correlationId, split }: PublishOptions = {}): Promise<void> {
    const headers = newMessageHeaders(correlationId);
    // A body larger than the broker takes is split (or refused) here: the broker would close the channel on it.
    const maxBytes = this.options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const report = { splits: 0, cut: 0 };
    const contents = encodedWithin(routingKey, body, maxBytes, split, report);
    if (report.splits > 0) {
      // Once per publish: a part cut down left out what could not be carried (the publisher's split says what, and records it).
      this.options.logger.warn('a message larger than the broker takes was split', { routingKey, maxBytes, messages: contents.length, cutDown: report.cut });
    }
    const key = routingKeyOn(routingKey, lane ?? currentLogContext().lane ?? 'interactive');
    const options = { persistent: true, contentType: 'application/json', timestamp: Math.floor(Date.now() / 1000), headers };
    try {
      await Promise.all(
        contents.map((content) => this.publisher.publish(exchangeName(this.options.prefix), key, content, { ...options, messageId: randomUUID() })),
      );
    } catch (error) {
      const reason =
        error instanceof Error && error.message === 'timeout' ? `not confirmed within ${this.options.publishTimeoutMs ?? 10_000} ms` : String(error);
      throw new Error(`publishing ${routingKey} failed (${this.publishing.isConnected() ? 'connected' : 'disconnected'}): ${reason}`, { cause: error });
    }
  }

  /** One message at a time per delivery; up to `prefetch` deliveries (per lane) are handled concurrently. */
  async consume<T>(queue: QueueName, handler: MessageHandler<T>, validate?: (data: unknown) => Validation<T>, options: ConsumeOptions = {}): Promise<void> {
    await this.startConsumers(
      queue,
      () => this.options.prefetch,
      ({ workLane }) =>
        (message) => {
          const delivery = parseDelivery(message, workLane, validate);
          if ('error' in delivery) return this.track(this.settlement.settle(message, delivery.error, options));
          this.track(
            // async: a handler that throws before returning its promise fails its message, not the frame loop.
            logContext
              .run({ correlationId: delivery.correlationId, acceptedAt: delivery.acceptedAt, lane: workLane }, () =>
                inSpan(`${queue} process`, { kind: 'consumer', parent: delivery.trace ?? null, attributes: { 'messaging.destination.name': queue } }, () =>
                  this.priority.run(workLane, async () => handler(delivery)),
                ),
              )
              .then(
                () => this.settlement.ack(message),
                (error: Error) => this.settlement.settle(message, error, options),
              ),
          );
        },
    );
  }

  /** Collects each lane's deliveries until `maxBatch` or `windowMs`, then hands them over together (a batch never mixes lanes). */
  async consumeBatches<T>(
    queue: QueueName,
    handler: BatchHandler<T>,
    batchOptions: BatchOptions,
    validate?: (data: unknown) => Validation<T>,
    options: ConsumeOptions = {},
  ): Promise<void> {
    await this.startConsumers(
      queue,
      () => Math.max(this.options.prefetch, batchOptions.maxBatch * 2),
      ({ workLane }) => {
        const collector = new BatchCollector<T>(
          batchOptions,
          (delivery) => this.settlement.isLive(delivery.raw),
          (batch) => this.track(this.priority.run(workLane, () => handleBatch(this.settlement, { queue, lane: workLane, handler, options }, batch))),
        );
        this.pendingBatches.push(() => collector.flush());
        return (message) => {
          const delivery = parseDelivery(message, workLane, validate);
          if ('error' in delivery) return this.track(this.settlement.settle(message, delivery.error, options));
          collector.add(delivery);
        };
      },
    );
  }

  /**
   * Every running subscriber gets each message on `routingKey` (one exclusive, auto-deleted queue
   * per subscriber), at most once and only while connected: for telling replicas to drop cached
   * look-ups. `onConnect` runs on every (re)connect, since messages sent while disconnected are
   * missed.
   */
  async subscribeAll(routingKey: string, handler: (body: unknown) => void, onConnect: () => void = () => undefined): Promise<void> {
    this.broadcasts.push(await subscribeAll(this.connection, this.options, { routingKey, handler, onConnect }));
  }

  /** Stops taking messages, hands over collected batches, lets running handlers finish, then closes the connection. */
  async close(graceMs = 15_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.unregisterDepths();
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
    this.priority.close();
    for (const channel of this.broadcasts) await channel.cancelAll().catch(() => undefined);
    for (const flush of this.pendingBatches) flush();
    const deadline = Date.now() + graceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.publisher.close();
    await this.depthProbe.close();
    await Promise.all([this.connection.close(), this.publishing.close()]);
  }

  /** One consumer per lane of the queue, each on a channel of its own; `onMessageFor` builds a lane's message handler. */
  private async startConsumers(
    queue: QueueName,
    prefetchOf: () => number,
    onMessageFor: (lane: { lane: Lane; workLane: Lane }) => (message: ConsumeMessage) => void,
  ): Promise<void> {
    this.consumed.push({ queue, names: this.names(queue) });
    for (const lane of lanesOf(this.options.prefix, queue)) {
      const onMessage = onMessageFor(lane);
      const consumer = new ConsumerChannel(this.connection, {
        queue,
        names: lane.names,
        prefetch: lane.lane === 'bulk' ? (this.options.bulkPrefetch ?? prefetchOf()) : prefetchOf(),
        logger: this.options.logger,
        declare: (channel) => declareTopology(channel, this.options.prefix, this.options.retryDelayMs),
        onMessage: (message, source) => {
          this.settlement.received(message, source);
          // A delivery held while its channel closed is the broker's again (delivered anew): not handled here.
          this.priority.deliver(lane.workLane, () => {
            if (this.settlement.isLive(message)) onMessage(message);
          });
        },
        reopenDelayMs: RECONNECT_SECONDS * 1000,
      });
      this.consumers.push(consumer);
      await consumer.start();
    }
  }

  /** Bulk deliveries this process holds now while interactive work runs (LanePriority). */
  get heldBulkDeliveries(): number {
    return this.priority.holding;
  }

  private track(work: Promise<unknown>): void {
    this.inFlight++;
    void work.catch((error) => this.options.logger.error('message settlement failed', { error: String(error) })).finally(() => this.inFlight--);
  }
}
