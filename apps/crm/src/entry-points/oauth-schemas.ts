import { closed, validator } from './schema-validator';

/** POST /crm/admin/v1/accounts/{portalId}/oauth-grants: the client to register for the account. */
const oauthGrantBody = {
  type: 'object',
  required: ['clientId', 'clientSecret'],
  properties: {
    clientId: { type: 'string', minLength: 1, maxLength: 200 },
    clientSecret: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;
export const validateOAuthGrant = validator(oauthGrantBody);

/** Its answer (201): the refresh token is shown once; only its hash is kept. */
export const oauthGrantAnswerSchema = {
  type: 'object',
  required: ['portalId', 'clientId', 'refreshToken'],
  properties: { portalId: { type: 'integer' }, clientId: { type: 'string' }, refreshToken: { type: 'string' } },
} as const;

/** What the token endpoint's refusals name, in `status` (the hosted CRM's) and `error` (RFC 6749 section 5.2). */
export const OAUTH_REFUSAL_STATUSES = ['BAD_GRANT_TYPE', 'BAD_CLIENT_ID', 'BAD_REFRESH_TOKEN'] as const;
export const OAUTH_ERROR_CODES = ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type'] as const;

/** A refusal of POST /oauth/v1/token: the hosted CRM's body (the SDK reads it as its ModelError) and RFC 6749's codes. */
export const oauthErrorSchema = {
  $id: 'crm-oauth-error',
  type: 'object',
  required: ['status', 'message', 'correlationId', 'category', 'error'],
  properties: {
    status: { type: 'string', enum: OAUTH_REFUSAL_STATUSES },
    message: { type: 'string' },
    correlationId: { type: 'string', description: 'The request id' },
    category: { const: 'VALIDATION_ERROR' },
    error: { type: 'string', enum: OAUTH_ERROR_CODES },
    error_description: { type: 'string' },
    requestId: { type: 'string' },
  },
} as const;

export const OAUTH_BODY_SCHEMAS = { oauthGrantBody: closed(oauthGrantBody) };
