export { createLogger, logContext, currentLogContext } from './logger';
export type { Logger, LogContext } from './logger';
