import type { ConsumeMessage } from 'amqplib';
import type { Lane, Validation } from '@ecomm-sync/contracts';
import type { Delivery } from './broker-types';
import { PoisonMessageError } from './errors';
import { readMessage } from './settlement';

/** A delivered message as its handler gets it, or the poison error it fails with (not JSON, or not its schema). */
export function parseDelivery<T>(message: ConsumeMessage, lane: Lane, validate?: (data: unknown) => Validation<T>): Delivery<T> | { error: Error } {
  const { body, parsed, attempt, correlationId, trace, acceptedAt } = readMessage(message);
  if (!parsed) return { error: new PoisonMessageError('message body is not JSON') };
  if (validate) {
    const result = validate(body);
    if (!result.ok) return { error: new PoisonMessageError(`message fails its schema: ${result.message}`) };
  }
  return { body: body as T, raw: message, attempt, correlationId, trace, acceptedAt, lane };
}
