/**
 * The largest message body the broker takes: RabbitMQ 4's default `max_message_size` (16 MiB;
 * RabbitMQ 3's was 128 MiB). A publish above it is refused by closing the publisher channel, which
 * fails every other publish in flight on it, so the service refuses such a body itself, first.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** A body larger than the broker takes that could not be split: the publish fails with what it weighed. */
export class MessageTooLargeError extends Error {
  constructor(
    readonly routingKey: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`a message to ${routingKey} of ${bytes} bytes is larger than the broker takes (${maxBytes} bytes) and cannot be split further`);
    this.name = 'MessageTooLargeError';
  }
}

/**
 * Makes smaller bodies of one that weighed `bytes` (over `maxBytes`): usually two halves, or one
 * body that leaves out what cannot be carried; null when nothing can be made smaller.
 */
export type SplitBody = (body: unknown, bytes: number, maxBytes: number) => readonly unknown[] | null;

/** What splitting a body did: how often a body was split, and how often into one smaller body (cut down). */
export interface SplitReport {
  splits: number;
  cut: number;
}

/**
 * The body as JSON, or as the bodies `split` makes of it (again and again) while one is larger
 * than `maxBytes`. The common case costs one encoding, as before; only a body too large is encoded
 * again, in its parts. `report`, when given, counts the splits.
 */
export function encodedWithin(routingKey: string, body: unknown, maxBytes: number, split?: SplitBody, report?: SplitReport): Buffer[] {
  const content = Buffer.from(JSON.stringify(body));
  if (content.length <= maxBytes) return [content];
  const parts = split?.(body, content.length, maxBytes);
  if (!parts?.length) throw new MessageTooLargeError(routingKey, content.length, maxBytes);
  if (report) {
    report.splits++;
    if (parts.length === 1) report.cut++;
  }
  return parts.flatMap((part) => encodedWithin(routingKey, part, maxBytes, split, report));
}
