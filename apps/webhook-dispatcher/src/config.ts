import { amqpKeys, commonKeys, loadConfig, mongoKeys, secretsRotationKeys, type ConfigSchema } from '@ecomm-sync/runtime';

export const webhookDispatcherConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  WEBHOOK_DISPATCHER_HEALTH_PORT: { doc: 'port of the health endpoints (/healthz, /readyz)', format: 'port', default: 3204 },
  SECRETS_KEY: { doc: "the key that sealed application client secrets (the same as the gateway's)", format: 'string', sensitive: true, productionSecret: true },
  ...secretsRotationKeys,
  WEBHOOK_TIMEOUT_MS: { doc: 'timeout of one webhook attempt', format: 'int', default: 10000, atLeast: 1 },
  WEBHOOK_MAX_ATTEMPTS: { doc: 'attempts of a webhook before its import fails', format: 'int', default: 5, atLeast: 1 },
  WEBHOOK_BACKOFF_BASE_MS: { doc: 'wait before the second attempt; doubles after each, with jitter', format: 'int', default: 1000 },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    doc: 'allow webhook targets on loopback, private and link-local addresses (development and tests only)',
    format: 'boolean',
    default: false,
  },
} as const satisfies ConfigSchema;

export const loadWebhookDispatcherConfig = () => loadConfig(webhookDispatcherConfigSchema);
