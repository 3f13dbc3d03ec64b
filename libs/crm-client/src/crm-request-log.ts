import { countCrmRequestLog } from '@ecomm-sync/runtime';
import type { CrmExchange, CrmExchangeSink } from './crm-exchange';

export interface CrmRequestLogOptions {
  /** Stores a batch of exchanges (an unordered insertMany): its failure loses that batch only. */
  write(exchanges: CrmExchange[]): Promise<void>;
  /** Exchanges held at most; more are dropped and counted until a write makes room (default 2000). */
  maxBuffered?: number;
  /** Exchanges written at a time; a full batch is written at once (default 200). */
  batchSize?: number;
  /** How often what is held is written (default 1000 ms). */
  flushIntervalMs?: number;
  /** Told when a write failed (its exchanges are dropped). */
  onWriteFailed?(error: unknown, exchanges: number): void;
}

/**
 * The CRM request log's writer (decision 0051): CRM clients hand it exchanges without waiting; it
 * holds them in a bounded buffer and writes them in batches, in the background. A full buffer
 * drops (counted in `ecomm_crm_request_log_entries_total{outcome="dropped"}`) rather than slow or
 * fail a CRM request; `close` writes what is held (on shutdown).
 */
export class CrmRequestLog implements CrmExchangeSink {
  private buffer: CrmExchange[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly maxBuffered: number;
  private readonly batchSize: number;

  constructor(private readonly options: CrmRequestLogOptions) {
    this.maxBuffered = options.maxBuffered ?? 2000;
    this.batchSize = options.batchSize ?? 200;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Exchanges held, not written yet. */
  get buffered(): number {
    return this.buffer.length;
  }

  record(exchange: CrmExchange): void {
    if (this.buffer.length >= this.maxBuffered) {
      countCrmRequestLog('dropped');
      return;
    }
    this.buffer.push(exchange);
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /** Writes what is held, a batch at a time; resolves when the buffer was empty once (never rejects). */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is held. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    // Exchanges recorded while the last batch was written.
    if (this.buffer.length > 0) await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      try {
        await this.options.write(batch);
        countCrmRequestLog('written', batch.length);
      } catch (error) {
        countCrmRequestLog('write_failed', batch.length);
        this.options.onWriteFailed?.(error, batch.length);
      }
    }
  }
}
