import { Writable } from 'node:stream';
import winston from 'winston';
import type { Logger } from '@ecomm-sync/runtime';

export interface LogEntry {
  level: string;
  message: string;
  [field: string]: unknown;
}

/** A logger that keeps its entries in memory, for tests that assert what a component reported. */
export function recordingLogger(level = 'info'): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      entries.push(JSON.parse(chunk.toString('utf8')) as LogEntry);
      done();
    },
  });
  const logger = winston.createLogger({ level, format: winston.format.json(), transports: [new winston.transports.Stream({ stream })] });
  return { logger, entries };
}
