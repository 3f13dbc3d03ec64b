import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

export type Logger = winston.Logger;

export interface LogContext {
  requestId?: string;
  correlationId?: string;
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

const withContext = winston.format((info) => Object.assign(info, currentLogContext()));

/** JSON lines on stdout, one logger per process. */
export function createLogger(service: string, level = 'info'): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(withContext(), winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
