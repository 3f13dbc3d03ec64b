import type { ConfigSchema } from './load-config';

export const commonKeys = {
  LOG_LEVEL: {
    doc: 'winston log level',
    format: 'string',
    default: 'info',
    values: ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'],
  },
  METRICS_ENABLED: { doc: 'record Prometheus metrics, served at GET /metrics (false: the endpoint shows nothing of ours)', format: 'boolean', default: true },
  TRACING_ENABLED: { doc: 'carry W3C trace context through HTTP, AMQP headers and CRM requests, and log the trace id', format: 'boolean', default: true },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    doc: 'OTLP/HTTP endpoint (e.g. http://otel-collector:4318) that spans are exported to; unset: no spans recorded or exported',
    format: 'url',
    optional: true,
  },
  NODE_ENV: {
    doc: 'production (the images) makes the service refuse placeholder or short secrets (ADMIN_TOKEN, SECRETS_KEY)',
    format: 'string',
    default: 'development',
  },
} as const satisfies ConfigSchema;

export const mongoKeys = {
  // Sensitive: it carries the database user's password in production (deploy/k8s/secret.example.yaml).
  MONGO_URL: { doc: 'MongoDB connection string (no database name)', format: 'url', default: 'mongodb://127.0.0.1:27017', sensitive: true },
  MONGO_DB: { doc: 'database of the sync service', format: 'string', default: 'ecomm_sync' },
} as const satisfies ConfigSchema;

export const amqpKeys = {
  AMQP_URL: { doc: 'RabbitMQ connection string', format: 'url', default: 'amqp://guest:guest@127.0.0.1:5672', sensitive: true },
  AMQP_PREFIX: {
    doc: 'prefix of every exchange and queue name, so that stacks sharing a broker never see each other',
    format: 'string',
    default: 'ecomm',
  },
  AMQP_PREFETCH: { doc: 'unacknowledged messages a consumer holds at once', format: 'int', default: 50 },
  AMQP_BULK_PREFETCH: {
    doc: "unacknowledged messages a consumer of a bulk lane holds at once; fewer than AMQP_PREFETCH leaves more of a replica to the interactive lane's work (bench: fairness)",
    format: 'int',
    default: 10,
  },
  AMQP_BULK_HOLD_MS: {
    doc: "longest a bulk lane's delivery waits in a replica while interactive work runs there, before its handling starts (0: never); interactive work goes first, bulk work never starves; it acts where a replica consumes both, the mapper and the applier (decision 45)",
    format: 'int',
    default: 100,
  },
  AMQP_RETRY_DELAY_MS: {
    doc: 'delay before a transiently failed message is tried again; fixed for a deployment: its retry queues carry it, and RabbitMQ refuses to declare them again with another value (to change it, stop every app and delete the empty *.retry queues first)',
    format: 'int',
    default: 2000,
  },
  AMQP_MAX_ATTEMPTS: { doc: 'attempts of a message before it goes to the dead-letter queue', format: 'int', default: 5 },
} as const satisfies ConfigSchema;

/** Keys that opened sealed secrets before a rotation (the apps that have SECRETS_KEY). */
export const secretsRotationKeys = {
  SECRETS_PREVIOUS_KEYS: {
    doc: 'keys SECRETS_KEY replaced, comma separated, newest first: values sealed under them still open (by key id) until `ecomm-sync reseal` seals them again under SECRETS_KEY; then remove them',
    format: 'string',
    sensitive: true,
    optional: true,
  },
} as const satisfies ConfigSchema;

/** The CRM request log (decision 0051), in every app that sends requests to a CRM. */
export const crmRequestLogKeys = {
  CRM_REQUEST_LOG: {
    doc: 'record every CRM request and its answer (redacted, bounded, kept 7 days) for the console; off: nothing is recorded',
    format: 'string',
    default: 'on',
    values: ['on', 'off'],
  },
  CRM_REQUEST_LOG_MAX_BUFFERED: {
    doc: 'CRM exchanges held for the request log before they are written; beyond it they are dropped and counted, never waited for',
    format: 'int',
    default: 2000,
  },
} as const satisfies ConfigSchema;

/** Each portal's intake pace (decision 0057), shared by the gateway's replicas and the import-coordinator's releases. */
export const intakePaceKeys = {
  INTAKE_OBJECTS_PER_SECOND: {
    doc: "objects a second one portal's sync batches and released imports are taken in at, by all gateway and import-coordinator replicas together (they share each portal's pace in the database), once INTAKE_BURST_OBJECTS are spent (at INTAKE_SHARED_OBJECTS_PER_SECOND instead while other portals send too); a batch beyond it waits before it is accepted or released, so that one portal's backfill does not take the machines from everyone else's work (0: no pace); the same in every app",
    format: 'int',
    default: 2000,
  },
  INTAKE_SHARED_OBJECTS_PER_SECOND: {
    doc: "objects a second one portal's sync batches and released imports are taken in at while other portals send too (a portal counts as sending until 5 s after the last of its taken batches and releases is due, on any replica; each replica reads who is sending once a second), when lower than INTAKE_OBJECTS_PER_SECOND: a portal alone may keep the machines busy, a backfill beside others leaves them room, so that others' objects are not slowed by it (0: INTAKE_OBJECTS_PER_SECOND throughout); size it to what the deployment applies with room to spare; the same in every app",
    format: 'int',
    default: 1000,
  },
  INTAKE_BURST_OBJECTS: {
    doc: 'objects one portal may send at once before INTAKE_OBJECTS_PER_SECOND applies; the same in every app',
    format: 'int',
    default: 400,
  },
  INTAKE_MAX_WAIT_MS: {
    doc: "longest a batch waits for its portal's intake pace; one that would wait longer gets 429 with Retry-After and nothing of it is accepted (an import's release waits for room within it instead); the same in every app",
    format: 'int',
    default: 10_000,
  },
} as const satisfies ConfigSchema;
