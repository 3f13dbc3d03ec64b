export { MongoCrmBudgets } from './mongo-crm-budgets';
export type { MongoCrmBudgetsOptions, CrmBudgetStatus } from './mongo-crm-budgets';
export type { CrmBudgetStats } from './account-budget';
export { CRM_TIER_LIMITS, CrmBudgetPaused } from '@ecomm-sync/domain';
export type { CrmBudget, CrmLimits, CrmTier, CrmRequestKind, CrmPauseReason } from '@ecomm-sync/domain';
