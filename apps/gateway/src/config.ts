import { amqpKeys, commonKeys, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/config';

export const gatewayConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  GATEWAY_PORT: { doc: 'port the gateway listens on', format: 'port', default: 3000 },
  GATEWAY_BODY_LIMIT: { doc: 'largest accepted request body (bigger ones answer 413)', format: 'string', default: '4mb' },
  ADMIN_TOKEN: { doc: 'bearer token of the admin API', format: 'string', sensitive: true },
  GATEWAY_LOOKUP_CACHE_MS: {
    doc: 'how long a portal found by its API key and a known store are remembered (0: look up on every request); a disabled portal or deleted store takes effect within it',
    format: 'int',
    default: 2000,
  },
  CRM_BASE_URL: { doc: 'base URL of the built-in CRM (its admin API makes accounts for new portals)', format: 'url', default: 'http://127.0.0.1:3100' },
} as const satisfies ConfigSchema;

export const loadGatewayConfig = () => loadConfig(gatewayConfigSchema);
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
