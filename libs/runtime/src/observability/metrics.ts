import client from 'prom-client';
import { accountLabel, LabelCap } from './label-cap';

/** The process's metrics, as GET /metrics shows them. */
export const metricsRegistry = client.register;

let enabled = true;
let defaultMetricsStarted = false;

/** Turns the recording on or off (METRICS_ENABLED) and starts the default process metrics once. */
export function startMetrics({ enabled: on = true }: { enabled?: boolean } = {}): void {
  enabled = on;
  if (on && !defaultMetricsStarted) {
    client.collectDefaultMetrics();
    defaultMetricsStarted = true;
  }
}

export const metricsEnabled = (): boolean => enabled;

/** The text /metrics answers, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 86_400];
/** CRM accounts a replica keeps apart in labels; more read as "other" (accounts are per portal for the built-in CRM). */
const ACCOUNT_LABEL_LIMIT = 100;

const httpRequestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests served, by method, route template (or "unmatched") and status code',
  labelNames: ['method', 'route', 'status_code'],
  buckets: DURATION_BUCKETS,
});

export function observeHttpRequest(method: string, route: string, statusCode: number, seconds: number): void {
  if (enabled) httpRequestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
}

const messagesConsumed = new client.Counter({
  name: 'ecomm_messages_consumed_total',
  help: 'AMQP messages delivered to a consumer, by queue',
  labelNames: ['queue'],
});
const messagesAcknowledged = new client.Counter({
  name: 'ecomm_messages_acknowledged_total',
  help: 'AMQP messages handled and acknowledged, by queue',
  labelNames: ['queue'],
});
const messagesRetried = new client.Counter({
  name: 'ecomm_messages_retried_total',
  help: 'AMQP messages that failed and went to the retry queue, by queue',
  labelNames: ['queue'],
});
const messagesDeadLettered = new client.Counter({
  name: 'ecomm_messages_dead_lettered_total',
  help: 'AMQP messages moved to the dead-letter queue, by queue',
  labelNames: ['queue'],
});
const messageProcessing = new client.Histogram({
  name: 'ecomm_message_processing_seconds',
  help: 'Time from the delivery of an AMQP message to its settlement (ack, retry or dead letter), batching window included, by queue',
  labelNames: ['queue'],
  buckets: DURATION_BUCKETS,
});

export type Settlement = 'acknowledged' | 'retried' | 'dead-lettered';
const SETTLED = { acknowledged: messagesAcknowledged, retried: messagesRetried, 'dead-lettered': messagesDeadLettered } as const;

export const messageMetrics = {
  consumed(queue: string): void {
    if (enabled) messagesConsumed.inc({ queue });
  },
  settled(queue: string, how: Settlement, seconds: number): void {
    if (!enabled) return;
    SETTLED[how].inc({ queue });
    messageProcessing.observe({ queue }, seconds);
  },
};

const syncLag = new client.Histogram({
  name: 'ecomm_sync_lag_seconds',
  help: 'Time from acceptance at the gateway to the change applied in the CRM (written and its status stored), by object type',
  labelNames: ['object_type'],
  buckets: LAG_BUCKETS,
});

export function observeSyncLag(objectType: string, acceptedAt: number, now = Date.now()): void {
  if (enabled) syncLag.observe({ object_type: objectType }, Math.max(0, now - acceptedAt) / 1000);
}

const accounts = new LabelCap(ACCOUNT_LABEL_LIMIT);
const crmRequests = new client.Counter({
  name: 'ecomm_crm_requests_total',
  help: 'Requests sent to a CRM, by CRM account (capped) and outcome (ok, rate_limited = 429, client_error, server_error, no_answer)',
  labelNames: ['account', 'outcome'],
});
const crmBudgetWaits = new client.Counter({
  name: 'ecomm_crm_budget_waits_total',
  help: 'CRM requests that waited for a permit of their account budget, by CRM account (capped)',
  labelNames: ['account'],
});
const crmBudgetWaitSeconds = new client.Counter({
  name: 'ecomm_crm_budget_wait_seconds_total',
  help: 'Time CRM requests waited for a permit of their account budget, by CRM account (capped)',
  labelNames: ['account'],
});

export function countCrmRequest(account: string, outcome: string): void {
  if (enabled) crmRequests.inc({ account: accounts.value(accountLabel(account)), outcome });
}

export function observeBudgetWait(account: string, seconds: number): void {
  if (!enabled) return;
  const label = accounts.value(accountLabel(account));
  crmBudgetWaits.inc({ account: label });
  crmBudgetWaitSeconds.inc({ account: label }, seconds);
}

const intakePaced = new client.Counter({
  name: 'ecomm_intake_paced_total',
  help: "Sync batches (source sync) and import pages (source import) their portal's intake pace held, by outcome (waited; refused: 429; unpaced: the pace could not be read, so it went through at once)",
  labelNames: ['source', 'outcome'],
});
const intakeWaitSeconds = new client.Counter({
  name: 'ecomm_intake_wait_seconds_total',
  help: "Time sync batches and import pages waited for their portal's intake pace, by source (sync, import)",
  labelNames: ['source'],
});

/** One batch or page the intake pace held (decision 0057): it waited `seconds`, was refused, or went through unpaced. */
export function observeIntakePace(source: 'sync' | 'import', outcome: 'waited' | 'refused' | 'unpaced', seconds = 0): void {
  if (!enabled) return;
  intakePaced.inc({ source, outcome });
  if (seconds > 0) intakeWaitSeconds.inc({ source }, seconds);
}

const crmRequestLogEntries = new client.Counter({
  name: 'ecomm_crm_request_log_entries_total',
  help: 'CRM exchanges handed to the CRM request log, by outcome (written; dropped: its buffer was full; write_failed: the database refused the batch)',
  labelNames: ['outcome'],
});

export function countCrmRequestLog(outcome: 'written' | 'dropped' | 'write_failed', exchanges = 1): void {
  if (enabled) crmRequestLogEntries.inc({ outcome }, exchanges);
}

/** Depth of a queue and of its dead-letter queue, as the broker reports it. */
export interface QueueDepth {
  queue: string;
  messages: number;
  deadLetters: number;
}

const depthSources = new Set<() => Promise<QueueDepth[]>>();
let snapshot: { at: number; depths: Promise<QueueDepth[]> } | undefined;
/** Scrapes within this time share one look at the broker. */
const DEPTH_CACHE_MS = 1000;

/** Registers where queue depths come from (a broker); the returned function removes it again. */
export function registerQueueDepths(source: () => Promise<QueueDepth[]>): () => void {
  depthSources.add(source);
  snapshot = undefined;
  return () => {
    depthSources.delete(source);
    snapshot = undefined;
  };
}

function queueDepths(): Promise<QueueDepth[]> {
  if (!snapshot || Date.now() - snapshot.at > DEPTH_CACHE_MS) {
    const depths = Promise.all([...depthSources].map((source) => source().catch(() => []))).then((lists) => lists.flat());
    snapshot = { at: Date.now(), depths };
  }
  return snapshot.depths;
}

function depthGauge(name: string, help: string, read: (depth: QueueDepth) => number) {
  return new client.Gauge({
    name,
    help,
    labelNames: ['queue'],
    async collect() {
      this.reset();
      if (!enabled) return;
      for (const depth of await queueDepths()) this.set({ queue: depth.queue }, read(depth));
    },
  });
}

depthGauge('ecomm_queue_messages', 'Messages ready in a queue this process consumes, read from the broker at scrape time', (depth) => depth.messages);
depthGauge(
  'ecomm_dead_letter_queue_messages',
  'Messages in the dead-letter queue of a queue this process consumes, read from the broker at scrape time',
  (depth) => depth.deadLetters,
);
