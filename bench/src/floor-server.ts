/**
 * Ingest floor: the baseline (bare express + ajv with the gateway's schema) plus what makes a 204
 * mean "stored": the validated submission published persistently through the service's broker
 * library, confirmed before the answer, on the stack's own exchange. No authentication, limits,
 * mapping into the batch message or logging: what any intake that answers only once a batch is
 * durable does at least (SPEC.md: each batch is accepted durably). Argument: the port (0: any).
 * Environment, the stack's: AMQP_URL, AMQP_PREFIX and AMQP_RETRY_DELAY_MS (its topology is declared
 * as the stack's apps declare it; the URL, which holds the broker's password, stays out of `ps`).
 */
import express from 'express';
import { createValidator, TOPICS, v2SyncSubmissionSchema } from '@ecomm-sync/contracts';
import { Broker } from '@ecomm-sync/messaging';
import { amqpKeys, createLogger, loadConfig } from '@ecomm-sync/runtime';

async function main(): Promise<void> {
  const port = process.argv[2];
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
  const validate = createValidator(v2SyncSubmissionSchema);
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.put('/extensions/ecomm/v2/sync/messages', (req, res, next) => {
    const result = validate(req.body);
    if (!result.ok) return void res.status(400).json({ message: result.message });
    broker.publish(`${TOPICS.syncBatch}.${result.value.objectType}`, result.value, { lane: 'interactive' }).then(() => res.status(204).end(), next);
  });
  const server = app.listen(Number(port ?? 0), '127.0.0.1', () => {
    const address = server.address();
    console.log(`floor listening on ${typeof address === 'object' && address ? address.port : ''}`);
  });
  process.on('SIGTERM', () => server.close(() => void broker.close(1000).finally(() => process.exit(0))));
}

main().catch((error: unknown) => {
  console.error(`the ingest floor did not start: ${String(error)}`);
  process.exit(1);
});
