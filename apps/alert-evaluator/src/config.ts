import { amqpKeys, commonKeys, loadConfig, mongoKeys, secretsRotationKeys, type ConfigSchema } from '@ecomm-sync/runtime';

export const alertEvaluatorConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  ALERT_EVALUATOR_HEALTH_PORT: { doc: 'port of the health endpoints (/healthz, /readyz) and /metrics', format: 'port', default: 3205 },
  SECRETS_KEY: {
    doc: "the key that sealed the alert destinations' URLs and webhook signing secrets (the same as the gateway's)",
    format: 'string',
    sensitive: true,
    productionSecret: true,
  },
  ...secretsRotationKeys,
  ALERT_EVALUATION_INTERVAL_MS: {
    doc: 'how often alert rules are evaluated: each rule at most once per interval, by one replica (at least 60000 in production)',
    format: 'int',
    default: 60000,
  },
  ALERT_EVALUATION_BATCH: { doc: 'rules one replica evaluates per tick (the rest wait for the next tick or another replica)', format: 'int', default: 500 },
  ALERT_SMTP_URL: {
    doc: 'the SMTP server e-mail notices go through: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. Unset: e-mail destinations fail with a notice saying so',
    format: 'url',
    optional: true,
    sensitive: true,
  },
  ALERT_MAIL_FROM: { doc: 'the From address of e-mail notices', format: 'string', default: 'ecomm-sync alerts <alerts@localhost>' },
  ALERT_NOTICE_TIMEOUT_MS: { doc: 'timeout of one notice attempt (webhook, Slack, SMTP)', format: 'int', default: 10000 },
  ALERT_NOTICE_MAX_ATTEMPTS: { doc: 'attempts of a notice before it is dead-lettered with its error', format: 'int', default: 5 },
  ALERT_NOTICE_BACKOFF_BASE_MS: { doc: 'wait before the second attempt of a notice; doubles after each, with jitter', format: 'int', default: 1000 },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    doc: 'allow webhook and Slack targets on loopback, private and link-local addresses (development and tests only)',
    format: 'boolean',
    default: false,
  },
  CRM_BASE_URL: {
    doc: 'base URL of the built-in CRM objects API (portals with a hosted connection use its own): the CRM connection rules ask it whether the token is still taken',
    format: 'url',
    default: 'http://127.0.0.1:3100',
  },
  CRM_TIMEOUT_MS: { doc: "timeout of the CRM connection rule's request (one cheap read per connection and probe interval)", format: 'int', default: 15000 },
  ALERT_CRM_PROBE_INTERVAL_MS: {
    doc: "how often the CRM connection rule reads a connection's deal pipelines (from the shared request budget), per replica; in between its last answer stands (5 minutes)",
    format: 'int',
    default: 300000,
  },
  CRM_ALLOW_HTTP: {
    doc: "let a portal's hosted CRM connection use http (development and tests); otherwise only https, since every request carries the account's token",
    format: 'boolean',
    default: false,
  },
  GATEWAY_PUBLIC_URL: {
    doc: "the URL the console is reached at (the gateway's); a notice links to the console page that shows it. Unset: the link is a path",
    format: 'url',
    optional: true,
  },
} as const satisfies ConfigSchema;

export const loadAlertEvaluatorConfig = () => loadConfig(alertEvaluatorConfigSchema);
export type AlertEvaluatorConfig = ReturnType<typeof loadAlertEvaluatorConfig>;
