import { randomUUID } from 'node:crypto';
import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Validation } from '@ecomm-sync/contracts';
import { currentLogContext, logContext, type Logger } from '@ecomm-sync/logger';
import { PoisonMessageError } from './errors';
import { declareTopology, exchangeName, namesOf, type QueueName, type QueueNames } from './topology';

export interface BrokerOptions {
  url: string;
  prefix: string;
  prefetch: number;
  retryDelayMs: number;
  maxAttempts: number;
  logger: Logger;
  /** A publish not confirmed within this time fails (the caller answers 503, nothing is claimed). */
  publishTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface Delivery<T> {
  body: T;
  attempt: number;
  correlationId: string;
  raw: ConsumeMessage;
}

export type MessageHandler<T> = (delivery: Delivery<T>) => Promise<void>;
/** May return the deliveries that failed on their own; a throw fails the whole batch. */
export type BatchHandler<T> = (deliveries: Delivery<T>[]) => Promise<void | { delivery: Delivery<T>; error: Error }[]>;

export interface BatchOptions {
  maxBatch: number;
  windowMs: number;
}

interface Consumer {
  channel: ChannelWrapper;
  names: QueueNames;
}

const ATTEMPT_HEADER = 'x-attempt';
const CORRELATION_HEADER = 'x-correlation-id';

/**
 * RabbitMQ through amqp-connection-manager: the topology is declared in each channel's setup
 * (so it is re-declared after a reconnect), publishes go through confirm channels and resolve
 * only once the broker confirmed them, and consumers ack only after their handler succeeded.
 */
export class Broker {
  private readonly consumers: ChannelWrapper[] = [];
  private inFlight = 0;
  private closing = false;

  private constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly publisher: ChannelWrapper,
    private readonly options: BrokerOptions,
  ) {}

  static async connect(options: BrokerOptions): Promise<Broker> {
    // noDelay: small frames (publishes, confirms, acks) would otherwise wait ~40 ms for Nagle and delayed ACKs.
    const connection = amqp.connect([options.url], { heartbeatIntervalInSeconds: 10, reconnectTimeInSeconds: 1, connectionOptions: { noDelay: true } });
    connection.on('disconnect', ({ err }) => options.logger.warn('broker disconnected', { error: err?.message }));
    connection.on('connectFailed', ({ err }) => options.logger.warn('broker connection failed', { error: err?.message }));
    const publisher = connection.createChannel({
      name: 'publisher',
      confirm: true,
      publishTimeout: options.publishTimeoutMs ?? 10_000,
      setup: (channel: ConfirmChannel) => declareTopology(channel, options.prefix, options.retryDelayMs),
    });
    try {
      await withTimeout(publisher.waitForConnect(), options.connectTimeoutMs ?? 30_000, `RabbitMQ did not answer at ${redact(options.url)}`);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
    return new Broker(connection, publisher, options);
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  names(queue: QueueName): QueueNames {
    return namesOf(this.options.prefix, queue);
  }

  /** Publishes a persistent JSON message to the events exchange; resolves when the broker confirmed it. */
  async publish(routingKey: string, body: unknown, correlationId = currentLogContext().correlationId ?? randomUUID()): Promise<void> {
    await this.publisher.publish(exchangeName(this.options.prefix), routingKey, Buffer.from(JSON.stringify(body)), {
      persistent: true,
      contentType: 'application/json',
      messageId: randomUUID(),
      timestamp: Math.floor(Date.now() / 1000),
      headers: { [CORRELATION_HEADER]: correlationId, [ATTEMPT_HEADER]: 1 },
    });
  }

  /** One message at a time per delivery; up to `prefetch` deliveries are handled concurrently. */
  async consume<T>(queue: QueueName, handler: MessageHandler<T>, validate?: (data: unknown) => Validation<T>): Promise<void> {
    await this.startConsumer(queue, this.options.prefetch, (message, consumer) => {
      const delivery = this.parse(message, validate);
      if ('error' in delivery) return this.track(this.settle(consumer, message, delivery.error));
      this.track(
        logContext.run({ correlationId: delivery.correlationId }, () => handler(delivery)).then(
          () => consumer.channel.ack(message),
          (error: Error) => this.settle(consumer, message, error),
        ),
      );
    });
  }

  /** Collects deliveries until `maxBatch` or `windowMs`, then hands them over together. */
  async consumeBatches<T>(
    queue: QueueName,
    handler: BatchHandler<T>,
    { maxBatch, windowMs }: BatchOptions,
    validate?: (data: unknown) => Validation<T>,
  ): Promise<void> {
    let buffer: Delivery<T>[] = [];
    let timer: NodeJS.Timeout | undefined;
    let consumerRef: Consumer | undefined;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const batch = buffer;
      buffer = [];
      if (batch.length === 0 || !consumerRef) return;
      const consumer = consumerRef;
      this.track(
        logContext.run({ correlationId: batch[0].correlationId }, () => handler(batch)).then(
          (failures) => {
            const failed = new Map((failures ?? []).map(({ delivery, error }) => [delivery, error]));
            return Promise.all(
              batch.map((delivery) => {
                const error = failed.get(delivery);
                return error ? this.settle(consumer, delivery.raw, error) : consumer.channel.ack(delivery.raw);
              }),
            );
          },
          (error: Error) => Promise.all(batch.map((delivery) => this.settle(consumer, delivery.raw, error))),
        ),
      );
    };
    await this.startConsumer(queue, Math.max(this.options.prefetch, maxBatch * 2), (message, consumer) => {
      consumerRef = consumer;
      const delivery = this.parse(message, validate);
      if ('error' in delivery) return this.track(this.settle(consumer, message, delivery.error));
      buffer.push(delivery);
      if (buffer.length >= maxBatch) flush();
      else if (!timer) timer = setTimeout(flush, windowMs);
    });
  }

  /**
   * Every running subscriber gets each message on `routingKey` (one exclusive, auto-deleted queue
   * per subscriber), at most once and only while connected: for telling replicas to drop cached
   * look-ups. `onConnect` runs on every (re)connect, since messages sent while disconnected are
   * missed.
   */
  async subscribeAll(routingKey: string, handler: (body: unknown) => void, onConnect: () => void = () => undefined): Promise<void> {
    const exchange = exchangeName(this.options.prefix);
    const channel = this.connection.createChannel({
      name: `broadcast ${routingKey}`,
      setup: async (ch: ConfirmChannel) => {
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
              this.options.logger.warn('broadcast message ignored', { routingKey, error: String(error) });
            }
          },
          { noAck: true },
        );
        onConnect();
      },
    });
    await channel.waitForConnect();
    this.consumers.push(channel);
  }

  /** Stops taking messages, lets running handlers finish, then closes the connection. */
  async close(graceMs = 15_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const channel of this.consumers) await channel.cancelAll().catch(() => undefined);
    const deadline = Date.now() + graceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.connection.close();
  }

  private async startConsumer(queue: QueueName, prefetch: number, onMessage: (message: ConsumeMessage, consumer: Consumer) => void) {
    const names = this.names(queue);
    const channel = this.connection.createChannel({
      name: `consumer ${names.main}`,
      confirm: true,
      setup: (ch: ConfirmChannel) => declareTopology(ch, this.options.prefix, this.options.retryDelayMs),
    });
    await channel.waitForConnect();
    this.consumers.push(channel);
    await channel.consume(names.main, (message) => onMessage(message, { channel, names }), { prefetch });
  }

  private parse<T>(message: ConsumeMessage, validate?: (data: unknown) => Validation<T>): Delivery<T> | { error: Error } {
    let body: unknown;
    try {
      body = JSON.parse(message.content.toString('utf8'));
    } catch {
      return { error: new PoisonMessageError('message body is not JSON') };
    }
    if (validate) {
      const result = validate(body);
      if (!result.ok) return { error: new PoisonMessageError(`message fails its schema: ${result.message}`) };
    }
    const headers = message.properties.headers ?? {};
    return {
      body: body as T,
      raw: message,
      attempt: Number(headers[ATTEMPT_HEADER] ?? 1),
      correlationId: String(headers[CORRELATION_HEADER] ?? message.properties.messageId ?? randomUUID()),
    };
  }

  /**
   * Failure policy: a poison message goes to the dead-letter queue at once; a transient failure
   * goes to the retry queue (back after the retry delay) until maxAttempts, then dead-letters.
   * The original is acked only after its copy was confirmed, so nothing is lost in between.
   */
  private async settle({ channel, names }: Consumer, message: ConsumeMessage, error: Error): Promise<void> {
    const headers = message.properties.headers ?? {};
    const attempt = Number(headers[ATTEMPT_HEADER] ?? 1);
    const poison = error instanceof PoisonMessageError;
    const dead = poison || attempt >= this.options.maxAttempts;
    const target = dead ? names.dead : names.retry;
    this.options.logger.log(dead ? 'error' : 'warn', dead ? 'message dead-lettered' : 'message will be retried', {
      queue: names.main,
      routingKey: message.fields.routingKey,
      attempt,
      error: error.message,
    });
    try {
      await channel.sendToQueue(target, message.content, {
        persistent: true,
        contentType: message.properties.contentType,
        messageId: message.properties.messageId,
        headers: {
          ...headers,
          [ATTEMPT_HEADER]: dead ? attempt : attempt + 1,
          'x-last-error': error.message.slice(0, 1000),
          'x-original-routing-key': message.fields.routingKey,
        },
      });
      channel.ack(message);
    } catch (publishError) {
      this.options.logger.error('could not move a failed message; returning it to its queue', { error: String(publishError) });
      channel.nack(message, false, true);
    }
  }

  private track(work: Promise<unknown>): void {
    this.inFlight++;
    void work
      .catch((error) => this.options.logger.error('message settlement failed', { error: String(error) }))
      .finally(() => this.inFlight--);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
