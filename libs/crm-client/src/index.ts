export { HttpCrmClient, CrmRequestError, CrmUnavailableError, CrmPartialFailure } from './http-crm-client';
export type { CrmClientOptions, CrmUnavailableReason } from './http-crm-client';
export type { CrmPort, CrmInputFailure, CrmObject, CrmPropertyInfo, CrmPipeline, CrmPipelineStage, AssociationPair } from './crm-port';
export { CRM_BATCH_LIMIT } from './crm-port';
export { CrmAdminClient } from './crm-admin-client';
export type { CrmAccountLimits, CrmAccountLimitsState, CrmAccountUsage } from './crm-admin-client';
