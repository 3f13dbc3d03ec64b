import type { Server } from 'node:http';
import { ConfigError } from '@ecomm-sync/config';
import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { onShutdown, startHealthServer } from '@ecomm-sync/http';
import { createLogger, type Logger } from '@ecomm-sync/logger';
import { Broker } from '@ecomm-sync/messaging';
import { startObservability } from './observability';

/** What every service of the sync pipeline connects to (libs/config mongoKeys, amqpKeys, commonKeys). */
export interface InfrastructureConfig {
  LOG_LEVEL: string;
  MONGO_URL: string;
  MONGO_DB: string;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  AMQP_PREFETCH: number;
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
 * MongoDB and RabbitMQ connections, health and metrics endpoints, and on SIGTERM an orderly stop (stop accepting, let in-flight
 * work finish, close the broker, then the database). A bad configuration exits with its message.
 */
export function runService<C extends InfrastructureConfig>(options: ServiceOptions<C>): void {
  void (async () => {
    const config = options.loadConfig();
    const logger = createLogger(options.name, config.LOG_LEVEL);
    const observability = await startObservability(options.name, config);
    const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
    const broker = await Broker.connect({
      url: config.AMQP_URL,
      prefix: config.AMQP_PREFIX,
      prefetch: config.AMQP_PREFETCH,
      retryDelayMs: config.AMQP_RETRY_DELAY_MS,
      maxAttempts: config.AMQP_MAX_ATTEMPTS,
      logger,
    });
    const readiness = { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() };
    const health = options.healthPort ? await startHealthServer(options.healthPort(config), readiness, logger) : undefined;
    const started = (await options.start({ config, logger, database, broker })) ?? {};
    logger.info(`${options.name} started`, options.healthPort ? { healthPort: options.healthPort(config) } : {});
    onShutdown(logger, async () => {
      if (started.server) await new Promise((resolve) => started.server!.close(resolve));
      await broker.close();
      if (health) await new Promise((resolve) => health.close(resolve));
      await database.close();
      await observability.stop();
    });
  })().catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
