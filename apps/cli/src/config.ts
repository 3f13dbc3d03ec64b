import { amqpKeys, commonKeys, mongoKeys, secretsRotationKeys } from '@ecomm-sync/runtime';

export const cliConfig = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  CRM_BASE_URL: { doc: 'base URL of the built-in CRM', format: 'url', default: 'http://127.0.0.1:3100' },
  GATEWAY_URL: { doc: 'base URL of the gateway (admin commands)', format: 'url', default: 'http://127.0.0.1:3000' },
  ADMIN_TOKEN: { doc: 'admin token of the stack', format: 'string', sensitive: true, productionSecret: true, default: 'dev-admin-token' },
  SECRETS_KEY: {
    doc: "the stack's key that seals CRM secrets (create-portal and seed-demo store a portal's CRM token)",
    format: 'string',
    sensitive: true,
    productionSecret: true,
    default: 'dev-secrets-key-not-for-production',
  },
  ...secretsRotationKeys,
  DEMO_PORTAL_ID: { doc: 'portal id of the demo portal', format: 'int', default: 101 },
  DEMO_API_KEY: { doc: 'API key (hapikey) of the demo portal', format: 'string', default: 'demo-api-key', sensitive: true },
  DEMO_CRM_TOKEN: { doc: 'built-in CRM token of the demo portal', format: 'string', default: 'demo-crm-token-0123456789', sensitive: true },
} as const;
