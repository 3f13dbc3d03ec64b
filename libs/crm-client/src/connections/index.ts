export { CrmConnections, crmAccountKey } from './crm-connections';
export type { CrmBudget, CrmClientSpec, CrmConnectionsOptions } from './crm-connections';
export { CrmConnectionInputError, resolveCrmLimits, toCrmConnection } from './crm-connection-input';
export { OAuthAccessTokens } from './oauth-access-tokens';
export type { OAuthAccessTokensOptions } from './oauth-access-tokens';
export { OAuthCrmClient } from './oauth-crm-client';
