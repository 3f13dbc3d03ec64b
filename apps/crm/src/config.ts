import { commonKeys, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/config';

export const crmConfigSchema = {
  ...commonKeys,
  MONGO_URL: mongoKeys.MONGO_URL,
  CRM_MONGO_DB: { doc: 'database of the built-in CRM', format: 'string', default: 'crm' },
  CRM_PORT: { doc: 'port the built-in CRM listens on', format: 'port', default: 3100 },
  ADMIN_TOKEN: { doc: 'bearer token of the CRM admin API (accounts)', format: 'string', sensitive: true },
  CRM_DEFAULT_PIPELINE_LIMIT: { doc: 'deal pipelines a new portal may have', format: 'int', default: 10 },
  CRM_BODY_LIMIT: { doc: 'largest accepted request body', format: 'string', default: '5mb' },
} as const satisfies ConfigSchema;

export const loadCrmConfig = () => loadConfig(crmConfigSchema);
export type CrmConfig = ReturnType<typeof loadCrmConfig>;
