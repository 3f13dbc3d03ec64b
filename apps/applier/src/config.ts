import { DEFAULT_CHUNKS_AT_ONCE } from '@ecomm-sync/crm-client';
import { amqpKeys, commonKeys, crmRequestLogKeys, loadConfig, mongoKeys, secretsRotationKeys, type ConfigSchema } from '@ecomm-sync/runtime';

export const applierConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  APPLIER_HEALTH_PORT: { doc: 'port of the applier health endpoints (/healthz, /readyz)', format: 'port', default: 3202 },
  APPLIER_BATCH_SIZE: { doc: 'mapped-change messages collected before applying them together', format: 'int', default: 100 },
  APPLIER_BATCH_WINDOW_MS: { doc: 'longest wait for a batch to fill', format: 'int', default: 50 },
  APPLIER_WAIT_WINDOW_MS: { doc: 'how long a line item waits for its deal and product to be synced', format: 'int', default: 86400000 },
  APPLIER_WAIT_RETRY_INTERVAL_MS: {
    doc: 'how often waiting line items are tried again (a backstop; arrivals release them at once)',
    format: 'int',
    default: 30000,
  },
  APPLIER_RESUME_INTERVAL_MS: {
    doc: 'how often portals whose CRM wait ended (rate limit, daily cap, CRM away) are looked for, to apply their parked changes',
    format: 'int',
    default: 1000,
  },
  APPLIER_RESUME_PAGE_SIZE: { doc: 'parked changes applied per round when a portal resumes', format: 'int', default: 500 },
  APPLIER_RESUME_PATIENCE_MS: {
    doc: "a resume waits out a rate limit that ends within this time (the account's next 10-s window) instead of parking the portal again",
    format: 'int',
    default: 12000,
  },
  ABANDON_AFTER_MS: { doc: 'how long a deal may stay in checkout_pending before the sweep moves it to checkout_abandoned', format: 'int', default: 86400000 },
  ABANDON_SWEEP_INTERVAL_MS: { doc: 'how often the abandoned-checkout sweep runs (one replica at a time)', format: 'int', default: 60000 },
  ABANDON_SWEEP_BATCH: { doc: 'deals the sweep reads and moves at a time', format: 'int', default: 100 },
  SECRETS_KEY: { doc: "the key that sealed portals' CRM secrets (the same as the gateway's)", format: 'string', sensitive: true, productionSecret: true },
  ...secretsRotationKeys,
  CRM_BASE_URL: {
    doc: 'base URL of the built-in CRM objects API (portals with a hosted connection use its own)',
    format: 'url',
    default: 'http://127.0.0.1:3100',
  },
  CRM_TOKEN_REFRESH_MARGIN_MS: {
    doc: 'an OAuth access token of a hosted CRM this close to its expiry is refreshed before it is used',
    format: 'int',
    default: 60000,
  },
  CRM_TIMEOUT_MS: { doc: 'timeout of one CRM request', format: 'int', default: 15000 },
  CRM_MAX_WAIT_MS: {
    doc: "longest a CRM request waits (the account's request budget, 429s, a CRM not answering) before the portal's changes are parked until the CRM can take them",
    format: 'int',
    default: 5000,
  },
  CRM_CHUNKS_AT_ONCE: {
    doc: "requests of one batch call (writes, reads, archives; 100 objects each) sent to the CRM side by side, over any connection; one at a time when an object comes twice in a write. The account's request budget paces them. A hosted CRM answers in 150–300 ms: one at a time would hold a replica to a few requests a second",
    format: 'int',
    default: DEFAULT_CHUNKS_AT_ONCE,
  },
  CRM_PROPERTY_CACHE_MS: { doc: 'how long CRM property definitions are cached', format: 'int', default: 30000 },
  ...crmRequestLogKeys,
} as const satisfies ConfigSchema;

export const loadApplierConfig = () => loadConfig(applierConfigSchema);
