import type { ConsumeMessage } from 'amqplib';
import type { Lane, Validation } from '@ecomm-sync/contracts';
import type { Delivery } from './broker-types';
import { PoisonMessageError } from './errors';
import { REDELIVERY_LIMIT, RedeliveredTooOftenError, unsettledDeliveries } from './redeliveries';
import { readBody, readMeta, REDRIVEN_AT_HEADER } from './settlement';

/**
 * A delivered message as its handler gets it, or the error it fails with: poison when it is not
 * JSON or not its schema; a failure to retry when the broker delivered it too often without its
 * being settled, checked before its body is read (reading it may be what kills the consumer).
 */
export function parseDelivery<T>(message: ConsumeMessage, lane: Lane, validate?: (data: unknown) => Validation<T>): Delivery<T> | { error: Error } {
  const unsettled = unsettledDeliveries(message);
  if (unsettled >= REDELIVERY_LIMIT) return { error: new RedeliveredTooOftenError(unsettled) };
  const { attempt, correlationId, trace, acceptedAt } = readMeta(message);
  const { body, parsed } = readBody(message);
  if (!parsed) return { error: new PoisonMessageError('message body is not JSON') };
  if (validate) {
    const result = validate(body);
    if (!result.ok) return { error: new PoisonMessageError(`message fails its schema: ${result.message}`) };
  }
  const triedBefore = attempt > 1 || message.fields.redelivered || message.properties.headers?.[REDRIVEN_AT_HEADER] !== undefined;
  return { body: body as T, raw: message, attempt, correlationId, trace, acceptedAt, lane, triedBefore };
}
