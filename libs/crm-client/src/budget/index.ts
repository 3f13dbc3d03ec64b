export { MongoCrmBudgets } from './mongo-crm-budgets';
export type { MongoCrmBudgetsOptions, CrmBudgetStatus, CrmReach } from './mongo-crm-budgets';
export type { CrmBudgetStats } from './account-budget';
export { CRM_TIER_LIMITS, CrmBudgetPaused } from '@ecomm-sync/domain';
export type { CrmBudget, CrmLimits, CrmTier, CrmRequestKind, CrmPauseReason } from '@ecomm-sync/domain';
// For the budget's integration spec (libs/testing/src/lib-specs): the store port and its stored form.
export { AccountBudget } from './account-budget';
export type { BudgetStore } from './account-budget';
export type { CrmBudgetDoc } from './crm-budget.model';
