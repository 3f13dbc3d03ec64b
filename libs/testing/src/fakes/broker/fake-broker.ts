import type { Lane } from '@ecomm-sync/contracts';
import { encodedWithin, MAX_MESSAGE_BYTES, type Broker, type PublishOptions } from '@ecomm-sync/messaging';
import type { PublicOf } from '../public-of';

export interface PublishedMessage {
  routingKey: string;
  body: unknown;
  correlationId?: string;
  /** Set when the publisher asked for a lane. */
  lane?: Lane;
}

type Subscriber = { pattern: string; handler: (body: unknown, routingKey: string) => Promise<void> | void };

/** AMQP topic matching: `*` is one word, `#` zero or more. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const match = (p: string[], k: string[]): boolean => {
    if (p.length === 0) return k.length === 0;
    if (p[0] === '#') return match(p.slice(1), k) || (k.length > 0 && match(p, k.slice(1)));
    return k.length > 0 && (p[0] === '*' || p[0] === k[0]) && match(p.slice(1), k.slice(1));
  };
  return match(pattern.split('.'), routingKey.split('.'));
}

/**
 * The broker as the use cases see it (`publish`, which resolves once "confirmed"): it records every
 * publish, can be told to refuse the next ones (a broker that does not confirm), and delivers what
 * was published to subscribers when the test says so (`deliverAll`), never on its own.
 */
export class FakeBroker implements Pick<PublicOf<Broker>, 'publish'> {
  readonly published: PublishedMessage[] = [];
  private readonly subscribers: Subscriber[] = [];
  private undelivered: PublishedMessage[] = [];
  private failures: Error[] = [];

  /** `maxMessageBytes`: the largest body taken, as the real one's (a body above it is split by the publish's `split`, or refused). */
  constructor(private readonly options: { maxMessageBytes?: number } = {}) {}

  async publish(routingKey: string, body: unknown, { lane, correlationId, split }: PublishOptions = {}): Promise<void> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    // Each message as it goes on the wire (decoded again): the publisher changing its object later changes nothing.
    for (const content of encodedWithin(routingKey, body, this.options.maxMessageBytes ?? MAX_MESSAGE_BYTES, split)) {
      const message = { routingKey, body: JSON.parse(content.toString()) as unknown, ...(correlationId ? { correlationId } : {}), ...(lane ? { lane } : {}) };
      this.published.push(message);
      this.undelivered.push(message);
    }
  }

  /** The next `count` publishes fail with `error` (default: not confirmed) and publish nothing. */
  failNextPublishes(count: number, error = new Error('publishing failed (disconnected): not confirmed within 10000 ms')): void {
    this.failures.push(...Array.from({ length: count }, () => error));
  }

  /** Bodies published with a routing key matching `pattern` (AMQP topic syntax), in publish order. */
  bodiesTo<T = unknown>(pattern: string): T[] {
    return this.published.filter((message) => topicMatches(pattern, message.routingKey)).map((message) => message.body as T);
  }

  routingKeys(): string[] {
    return this.published.map((message) => message.routingKey);
  }

  /** Forgets what was published so far (after an arrange step). */
  clear(): void {
    this.published.length = 0;
    this.undelivered = [];
  }

  /** A handler for messages whose routing key matches `pattern`, as a consumer's binding would. */
  subscribe<T>(pattern: string, handler: (body: T, routingKey: string) => Promise<void> | void): void {
    this.subscribers.push({ pattern, handler: handler as Subscriber['handler'] });
  }

  /** Delivers published messages to the subscribers, one at a time, until none is left (messages they publish included). */
  async deliverAll(maxMessages = 10_000): Promise<number> {
    let delivered = 0;
    while (this.undelivered.length > 0) {
      if (++delivered > maxMessages) throw new Error(`more than ${maxMessages} messages delivered: a loop of messages?`);
      const message = this.undelivered.shift()!;
      for (const subscriber of this.subscribers) {
        if (topicMatches(subscriber.pattern, message.routingKey)) await subscriber.handler(structuredClone(message.body), message.routingKey);
      }
    }
    return delivered;
  }
}

/** For a use case typed with the whole `Broker` class (it only publishes). */
export const asBroker = (fake: FakeBroker): Broker => fake as unknown as Broker;
