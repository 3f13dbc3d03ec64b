import type { ConsumeMessage } from 'amqplib';
import type { Lane, Validation } from '@ecomm-sync/contracts';
import type { Delivery } from './broker-types';
import { PoisonMessageError } from './errors';
import { REDELIVERY_LIMIT, unsettledDeliveries } from './redeliveries';
import { readMessage } from './settlement';

/**
 * A delivered message as its handler gets it, or the poison error it fails with (not JSON, not
 * its schema, or delivered too often without being settled).
 */
export function parseDelivery<T>(message: ConsumeMessage, lane: Lane, validate?: (data: unknown) => Validation<T>): Delivery<T> | { error: Error } {
  const { body, parsed, attempt, correlationId, trace, acceptedAt } = readMessage(message);
  const unsettled = unsettledDeliveries(message);
  if (unsettled >= REDELIVERY_LIMIT) {
    return {
      error: new PoisonMessageError(
        `message returned to its queue unsettled ${unsettled} times (its consumer stopped while handling it, e.g. crashed or was killed, ` +
          'or could not move it to the retry queue); dead-lettered rather than handled again: find the cause in the logs, then redrive it',
      ),
    };
  }
  if (!parsed) return { error: new PoisonMessageError('message body is not JSON') };
  if (validate) {
    const result = validate(body);
    if (!result.ok) return { error: new PoisonMessageError(`message fails its schema: ${result.message}`) };
  }
  return { body: body as T, raw: message, attempt, correlationId, trace, acceptedAt, lane };
}
