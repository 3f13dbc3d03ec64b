import { commonKeys, ConfigError, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/runtime';
import { HOSTED_INTERVAL_MS, isValidTimeZone, type HostedLimits } from './domain/hosted-limits';

export const crmConfigSchema = {
  ...commonKeys,
  MONGO_URL: mongoKeys.MONGO_URL,
  CRM_MONGO_DB: { doc: 'database of the built-in CRM', format: 'string', default: 'crm' },
  CRM_PORT: { doc: 'port the built-in CRM listens on', format: 'port', default: 3100 },
  CRM_METRICS_PORT: { doc: "the built-in CRM's internal port: /metrics (never on CRM_PORT), /healthz and /readyz", format: 'port', default: 3101 },
  ADMIN_TOKEN: { doc: 'bearer token of the CRM admin API (accounts)', format: 'string', sensitive: true, productionSecret: true },
  CRM_DEFAULT_PIPELINE_LIMIT: { doc: 'deal pipelines a new portal may have', format: 'int', default: 10 },
  CRM_BODY_LIMIT: { doc: 'largest accepted request body', format: 'string', default: '5mb' },
  CRM_EMULATE_HOSTED_LIMITS: {
    doc: 'whether accounts without limits of their own (admin API .../limits) get the hosted CRM limits of the CRM_LIMIT_* keys',
    format: 'boolean',
    default: false,
  },
  CRM_LIMIT_BURST_PER_10S: { doc: 'requests per account in the rolling window (hosted tiers: 100, 190, 250); at least 1', format: 'int', default: 100 },
  CRM_LIMIT_INTERVAL_MS: { doc: 'length of the rolling window in ms (hosted: 10000); at least 100', format: 'int', default: HOSTED_INTERVAL_MS },
  CRM_LIMIT_DAILY_CAP: { doc: 'requests per account per day (hosted tiers: 250000, 625000, 1000000); at least 1', format: 'int', default: 250_000 },
  CRM_LIMIT_TIME_ZONE: { doc: 'IANA time zone whose midnight resets the daily counts', format: 'string', default: 'UTC' },
  CRM_LIMIT_SEARCH_PER_SECOND: { doc: 'search requests per account per second (hosted: about 4); at least 1', format: 'int', default: 4 },
  CRM_LIMIT_INVALID_MARKER: { doc: 'a property value that makes a batch input invalid on demand (answered in a 207)', format: 'string', optional: true },
  CRM_USAGE_RETENTION_SECONDS: { doc: 'how long per-second usage counts of limited accounts are kept in memory', format: 'int', default: 86_400 },
} as const satisfies ConfigSchema;

export const loadCrmConfig = () => loadConfig(crmConfigSchema);
export type CrmConfig = ReturnType<typeof loadCrmConfig>;

/** The limits of accounts without their own: the CRM_LIMIT_* keys when CRM_EMULATE_HOSTED_LIMITS is on, else none. */
export function hostedLimitsFromConfig(config: CrmConfig): HostedLimits | null {
  if (!config.CRM_EMULATE_HOSTED_LIMITS) return null;
  const atLeast = (name: 'CRM_LIMIT_BURST_PER_10S' | 'CRM_LIMIT_INTERVAL_MS' | 'CRM_LIMIT_DAILY_CAP' | 'CRM_LIMIT_SEARCH_PER_SECOND', minimum: number) => {
    if (config[name] < minimum)
      throw new ConfigError(`Invalid configuration: ${name} must be at least ${minimum}, got ${config[name]} (${crmConfigSchema[name].doc})`);
    return config[name];
  };
  if (!isValidTimeZone(config.CRM_LIMIT_TIME_ZONE)) {
    throw new ConfigError(
      `Invalid configuration: CRM_LIMIT_TIME_ZONE is not an IANA time zone, got "${config.CRM_LIMIT_TIME_ZONE}" (${crmConfigSchema.CRM_LIMIT_TIME_ZONE.doc})`,
    );
  }
  return {
    burstPer10s: atLeast('CRM_LIMIT_BURST_PER_10S', 1),
    intervalMs: atLeast('CRM_LIMIT_INTERVAL_MS', 100),
    dailyCap: atLeast('CRM_LIMIT_DAILY_CAP', 1),
    timeZone: config.CRM_LIMIT_TIME_ZONE,
    searchPerSecond: atLeast('CRM_LIMIT_SEARCH_PER_SECOND', 1),
    ...(config.CRM_LIMIT_INVALID_MARKER === undefined ? {} : { invalidMarker: config.CRM_LIMIT_INVALID_MARKER }),
  };
}
