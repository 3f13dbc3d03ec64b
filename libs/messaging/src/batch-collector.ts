import type { Lane } from '@ecomm-sync/contracts';
import { inSpan, logContext } from '@ecomm-sync/runtime';
import type { BatchHandler, BatchOptions, Delivery } from './broker-types';
import type { ConsumeOptions, Settlement } from './settlement';

/**
 * Collects one consumer's deliveries until `maxBatch` or `windowMs` after the first, then hands
 * them over together. Deliveries whose channel closed meanwhile are dropped: the broker has put
 * them back in their queue already.
 */
export class BatchCollector<T> {
  private buffer: Delivery<T>[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: BatchOptions,
    private readonly isLive: (delivery: Delivery<T>) => boolean,
    private readonly onBatch: (batch: Delivery<T>[]) => void,
  ) {}

  add(delivery: Delivery<T>): void {
    this.buffer.push(delivery);
    if (this.buffer.length >= this.options.maxBatch) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.options.windowMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer.filter(this.isLive);
    this.buffer = [];
    if (batch.length > 0) this.onBatch(batch);
  }
}

/**
 * Runs a batch's handler in the batch's context (its first message's trace, the earliest accepted
 * time, its lane), then settles each delivery: acked, or failed on its own when the handler says so;
 * a throw fails them all.
 */
export function handleBatch<T>(
  settlement: Settlement,
  { queue, lane, handler, options }: { queue: string; lane: Lane; handler: BatchHandler<T>; options: ConsumeOptions },
  batch: Delivery<T>[],
): Promise<unknown> {
  const acceptedAt = Math.min(...batch.map((delivery) => delivery.acceptedAt ?? Infinity));
  // One span for the batch: it continues the first message's trace and links the others.
  const traces = batch.flatMap((delivery) => (delivery.trace ? [delivery.trace] : []));
  return logContext
    .run({ correlationId: batch[0].correlationId, acceptedAt: Number.isFinite(acceptedAt) ? acceptedAt : undefined, lane }, () =>
      inSpan(
        `${queue} process`,
        {
          kind: 'consumer',
          parent: batch[0].trace ?? null,
          links: traces.slice(1),
          attributes: { 'messaging.destination.name': queue, 'messaging.batch.message_count': batch.length },
        },
        async () => handler(batch),
      ),
    )
    .then(
      (failures) => {
        const failed = new Map((failures ?? []).map(({ delivery, error }) => [delivery, error]));
        return Promise.all(
          batch.map((delivery) => {
            const error = failed.get(delivery);
            return error ? settlement.settle(delivery.raw, error, options) : settlement.ack(delivery.raw);
          }),
        );
      },
      (error: Error) => Promise.all(batch.map((delivery) => settlement.settle(delivery.raw, error, options))),
    );
}
