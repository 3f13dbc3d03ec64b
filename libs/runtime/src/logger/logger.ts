import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

export type Logger = winston.Logger;

/** What a piece of work (a request, a message) carries: its ids, and when its data was accepted. */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
  /** W3C trace context of the current span (libs/runtime/src/observability). */
  traceId?: string;
  spanId?: string;
  sampled?: boolean;
  /** When the gateway accepted the data this work is about (epoch ms); travels in AMQP headers, not logged. */
  acceptedAt?: number;
  /** The lane the work came in on (libs/messaging topology): what it publishes goes on the same lane. */
  lane?: 'interactive' | 'bulk';
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs fn with ids that every log line written inside it carries. */
export const logContext = {
  run<T>(context: LogContext, fn: () => T): T {
    return storage.run({ ...storage.getStore(), ...context }, fn);
  },
};

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}

/** The ids a log line carries (not the whole context: acceptedAt and the sampling flag are for the machinery). */
const withContext = winston.format((info) => {
  const { requestId, correlationId, traceId, spanId } = currentLogContext();
  if (requestId !== undefined) info.requestId = requestId;
  if (correlationId !== undefined) info.correlationId = correlationId;
  if (traceId !== undefined) info.traceId = traceId;
  if (spanId !== undefined) info.spanId = spanId;
  return info;
});

/**
 * Drops a line below the level before anything formats it. Winston formats every line (context,
 * timestamp, JSON) and leaves the level to its transports, so a per-request `info` cost the gateway
 * that much even at `warn`; a format that returns false drops the line (winston's documented filter).
 */
const belowLevelDropped = (logger: () => Logger) => winston.format((info) => (logger().isLevelEnabled(info.level) ? info : false));

/** JSON lines on stdout, one logger per process. */
export function createLogger(service: string, level = 'info', transports: winston.transport[] = [new winston.transports.Console()]): Logger {
  const logger: Logger = winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(
      belowLevelDropped(() => logger)(),
      withContext(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports,
  });
  return logger;
}
