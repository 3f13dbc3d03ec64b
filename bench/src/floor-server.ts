/**
 * Ingest floor: the baseline (bare express + ajv with the gateway's schema) plus what makes a 204
 * mean "stored": the validated submission published persistently through the service's broker
 * library, confirmed before the answer, on the stack's own exchange. No authentication, limits,
 * mapping into the batch message or logging: what any intake that answers only once a batch is
 * durable does at least (SPEC.md: each batch is accepted durably). Argument: the port (0: any).
 * Environment, the stack's: AMQP_URL, AMQP_PREFIX and AMQP_RETRY_DELAY_MS (its topology is declared
 * as the stack's apps declare it; the URL, which holds the broker's password, stays out of `ps`).
 */
import { TOPICS } from '@ecomm-sync/contracts';
import { Broker } from '@ecomm-sync/messaging';
import { amqpKeys, createLogger, loadConfig } from '@ecomm-sync/runtime';
import { serveReference } from './reference-server';

async function main(): Promise<void> {
  const config = loadConfig(amqpKeys);
  const logger = createLogger('ingest-floor', 'warn');
  const broker = await Broker.connect({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    prefetch: 1,
    retryDelayMs: config.AMQP_RETRY_DELAY_MS,
    maxAttempts: 1,
    logger,
  });
  serveReference('floor', {
    accepted: (submission) => broker.publish(`${TOPICS.syncBatch}.${submission.objectType}`, submission, { lane: 'interactive' }),
    onStop: () => broker.close(1000),
  });
}

main().catch((error: unknown) => {
  console.error(`the ingest floor did not start: ${String(error)}`);
  process.exit(1);
});
