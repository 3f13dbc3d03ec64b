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
export { CrmAdminClient } from './crm-admin-client';
export type { CrmAccountLimits, CrmAccountLimitsState, CrmAccountUsage } from './crm-admin-client';
