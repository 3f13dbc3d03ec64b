import type { Server } from 'node:http';
import { ConfigError, createLogger, type Logger, onShutdown, startHealthServer } from '@ecomm-sync/runtime';
import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { Broker } from '@ecomm-sync/messaging';
import { startObservability } from './observability';

/** What every service of the sync pipeline connects to (libs/runtime/src/config mongoKeys, amqpKeys, commonKeys). */
export interface InfrastructureConfig {
  LOG_LEVEL: string;
  MONGO_URL: string;
  MONGO_DB: string;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  AMQP_PREFETCH: number;
  AMQP_BULK_PREFETCH: number;
  AMQP_BULK_HOLD_MS: number;
  AMQP_RETRY_DELAY_MS: number;
  AMQP_MAX_ATTEMPTS: number;
  METRICS_ENABLED: boolean;
  TRACING_ENABLED: boolean;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  database: Database;
  broker: Broker;
  /**
   * Work to stop on SIGTERM before the broker closes (periodic tasks, leases): run after the HTTP
   * server stopped accepting, in the reverse order of registration, while the connections are up.
   */
  onStop: (stop: () => Promise<void>) => void;
  /**
   * Work to finish on SIGTERM after the broker closed (in-flight messages done), before the
   * database closes: writes that in-flight work left buffered (the CRM request log).
   */
  onDrained: (finish: () => Promise<void>) => void;
}

export interface ServiceOptions<C extends InfrastructureConfig> {
  name: string;
  /** Loads and validates the configuration (throws ConfigError naming the wrong variable). */
  loadConfig: () => C;
  /** Workers without an HTTP API of their own serve /healthz and /readyz on this port. */
  healthPort?: (config: C) => number;
  /** Starts the work; may return an HTTP server to close first on shutdown. */
  start: (context: ServiceContext<C>) => Promise<{ server?: Server } | void>;
}

/**
 * The life of a service process: validated configuration, one logger, metrics and tracing,
 * MongoDB and RabbitMQ connections, health and metrics endpoints, and on SIGTERM an orderly stop:
 * stop accepting, stop the registered work (periodic tasks finish their run, leases are released),
 * stop consuming and let in-flight messages finish (Broker.close), then close the database. A bad
 * configuration exits with its message.
 */
export function runService<C extends InfrastructureConfig>(options: ServiceOptions<C>): void {
  void (async () => {
    const config = options.loadConfig();
    const logger = createLogger(options.name, config.LOG_LEVEL);
    const observability = await startObservability(options.name, config);
    const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB, {
      onClockFailure: (error) =>
        logger.warn("the database server's clock could not be read; the offset measured last stays (none yet: this replica's own clock)", {
          error: String(error),
        }),
    });
    for (const index of database.undroppedIndexes) logger.warn('a retired index could not be dropped; it costs writes until a later start drops it', index);
    const broker = await Broker.connect({
      url: config.AMQP_URL,
      prefix: config.AMQP_PREFIX,
      prefetch: config.AMQP_PREFETCH,
      bulkPrefetch: config.AMQP_BULK_PREFETCH,
      bulkHoldMs: config.AMQP_BULK_HOLD_MS,
      retryDelayMs: config.AMQP_RETRY_DELAY_MS,
      maxAttempts: config.AMQP_MAX_ATTEMPTS,
      logger,
    });
    const readiness = { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() };
    const health = options.healthPort ? await startHealthServer(options.healthPort(config), readiness, logger) : undefined;
    const stops: (() => Promise<void>)[] = [];
    const onStop = (stop: () => Promise<void>) => void stops.unshift(stop);
    const finishes: (() => Promise<void>)[] = [];
    const onDrained = (finish: () => Promise<void>) => void finishes.push(finish);
    const started = (await options.start({ config, logger, database, broker, onStop, onDrained })) ?? {};
    logger.info(`${options.name} started`, options.healthPort ? { healthPort: options.healthPort(config) } : {});
    onShutdown(logger, async () => {
      logger.info(`${options.name} stopping`);
      if (started.server) await new Promise((resolve) => started.server!.close(resolve));
      for (const stop of stops) await stop().catch((error) => logger.warn('stopping work failed', { error: String(error) }));
      await broker.close();
      for (const finish of finishes) await finish().catch((error) => logger.warn('finishing work failed', { error: String(error) }));
      if (health) await new Promise((resolve) => health.close(resolve));
      await database.close();
      await observability.stop();
      logger.info(`${options.name} stopped`);
    });
  })().catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
