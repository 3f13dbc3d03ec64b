import mongoose from 'mongoose';
import { purgeAndDeleteTopology } from '@ecomm-sync/messaging';
import { freePort } from '../support';

export type AppName = 'gateway' | 'mapper' | 'applier' | 'crm' | 'import-coordinator' | 'webhook-dispatcher' | 'alert-evaluator';
export const ALL_APPS: AppName[] = ['crm', 'gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher', 'alert-evaluator'];

/** Each app's port: the API port of the gateway and the CRM, the health port of the workers. */
export const PORT_VARIABLES: Record<AppName, string> = {
  gateway: 'GATEWAY_PORT',
  crm: 'CRM_PORT',
  mapper: 'MAPPER_HEALTH_PORT',
  applier: 'APPLIER_HEALTH_PORT',
  'import-coordinator': 'IMPORT_COORDINATOR_HEALTH_PORT',
  'webhook-dispatcher': 'WEBHOOK_DISPATCHER_HEALTH_PORT',
  'alert-evaluator': 'ALERT_EVALUATOR_HEALTH_PORT',
};

/** The second, internal port of the apps with an API port: /metrics is served there only. */
export const METRICS_PORT_VARIABLES: Partial<Record<AppName, string>> = { gateway: 'GATEWAY_METRICS_PORT', crm: 'CRM_METRICS_PORT' };

// The workspace root has one home (libs/testing); the harness's users take it from here too.
export { workspaceRoot } from '../support';

export interface StackPorts {
  ports: Record<AppName, number>;
  /** The internal (metrics) port of the apps that have one. */
  metricsPorts: Partial<Record<AppName, number>>;
}

/** Free ports for every app, and for the internal ports of the gateway and the CRM. */
export async function freeStackPorts(): Promise<StackPorts> {
  const ports = Object.fromEntries(await Promise.all(ALL_APPS.map(async (app) => [app, await freePort()]))) as Record<AppName, number>;
  const metricsPorts = Object.fromEntries(await Promise.all(Object.keys(METRICS_PORT_VARIABLES).map(async (app) => [app, await freePort()])));
  return { ports, metricsPorts };
}

/**
 * The variables stackEnvironment sets to keep stacks apart: given another value, a stack would read,
 * write or drop another's databases and queues, take its ports, or talk past its CRM. The rest it
 * sets are tunables a caller may change (`extra`). A test ties this list to stackEnvironment.
 */
export const ISOLATING_VARIABLES: readonly string[] = [
  'MONGO_URL',
  'MONGO_DB',
  'CRM_MONGO_DB',
  'AMQP_URL',
  'AMQP_PREFIX',
  'ADMIN_TOKEN',
  'SECRETS_KEY',
  'CRM_BASE_URL',
  'GATEWAY_PUBLIC_URL',
  'SERVICE_READINESS_URLS',
  ...Object.values(PORT_VARIABLES),
  ...Object.values(METRICS_PORT_VARIABLES),
];

/** The environment every app of a stack gets: its own databases, AMQP prefix, secrets and ports. */
export function stackEnvironment(
  name: string,
  { mongoUrl, amqpUrl }: { mongoUrl: string; amqpUrl: string },
  { ports, metricsPorts }: StackPorts,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    MONGO_URL: mongoUrl,
    MONGO_DB: `${name}_sync`,
    CRM_MONGO_DB: `${name}_crm`,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: name,
    AMQP_RETRY_DELAY_MS: '300',
    ADMIN_TOKEN: `admin-${name}`,
    SECRETS_KEY: `secrets-${name}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    CRM_ALLOW_HTTP: 'true',
    CRM_BASE_URL: `http://127.0.0.1:${ports.crm}`,
    GATEWAY_PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
    LOG_LEVEL: 'info',
    // Tests poll status endpoints as fast as they like; rate limits have their own test.
    RATE_LIMIT_REQUESTS: '0',
    ...Object.fromEntries(ALL_APPS.map((app) => [PORT_VARIABLES[app], String(ports[app])])),
    ...Object.fromEntries(Object.entries(metricsPorts).map(([app, port]) => [METRICS_PORT_VARIABLES[app as AppName]!, String(port)])),
    // The console's operations page asks each service's /readyz.
    SERVICE_READINESS_URLS: ALL_APPS.filter((app) => app !== 'gateway')
      .map((app) => `${app}=http://127.0.0.1:${ports[app]}`)
      .join(','),
    ...extra,
  };
}

/** Removes what a stack made on the shared infrastructure: its AMQP topology and both databases. */
export async function removeStackInfrastructure(env: Record<string, string>): Promise<void> {
  await purgeAndDeleteTopology(env.AMQP_URL, env.AMQP_PREFIX).catch(() => undefined);
  const connection = await mongoose.createConnection(env.MONGO_URL).asPromise();
  try {
    for (const db of [env.MONGO_DB, env.CRM_MONGO_DB]) await connection.useDb(db).dropDatabase();
  } finally {
    await connection.close();
  }
}
