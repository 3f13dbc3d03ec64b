import type { Logger } from '../logger';

/** Longest orderly stop before the process exits anyway; deploy/ grace periods must exceed it. */
export const SHUTDOWN_TIMEOUT_MS = 20_000;

/**
 * On SIGTERM or SIGINT: run `close` (stop accepting, finish in-flight work, close the broker and
 * the database), then exit. A second signal, or a close that takes too long, exits at once.
 */
export function onShutdown(logger: Logger, close: () => Promise<void>, timeoutMs = SHUTDOWN_TIMEOUT_MS): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
