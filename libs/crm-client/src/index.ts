export { HttpCrmClient } from './http-crm-client';
export type { CrmClientOptions } from './http-crm-client';
export { crmErrorReason, CrmRequestError, CrmUnavailableError, CrmPartialFailure } from './crm-errors';
export type { CrmUnavailableReason } from './crm-errors';
export type {
  CrmPort,
  CrmInputFailure,
  CrmObject,
  CrmPropertyGroup,
  CrmPropertyInfo,
  CrmPipeline,
  CrmPipelineStage,
  NewCrmPipeline,
  NewCrmPipelineStage,
  AssociationPair,
} from './crm-port';
export { CRM_BATCH_LIMIT } from './crm-port';
export { DEFAULT_CHUNKS_AT_ONCE } from './http-request-helpers';
export { CrmAdminClient } from './crm-admin-client';
export type { CrmAccountLimits, CrmAccountLimitsState, CrmAccountUsage } from './crm-admin-client';
export { CrmRequestLog } from './crm-request-log';
export type { CrmRequestLogOptions } from './crm-request-log';
export { startCrmRequestLog } from './start-crm-request-log';
export type { CrmRequestLogConfig } from './start-crm-request-log';
export { crmObjectKey } from './crm-exchange';
export { currentSendingTenant, sendingFor, type SendingTenant } from './crm-exchange-scope';
export type { CrmExchange, CrmExchangeMessage, CrmExchangeSink } from './crm-exchange';
export { MAX_LOGGED_BODY_BYTES, REDACTED } from './crm-exchange-redaction';
export * from './connections';
export * from './budget';
