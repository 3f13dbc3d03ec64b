import { oauthRefreshFormSchema, oauthTokensSchema, toOpenApiSchema, type ApiOperation, type Json, type OpenApiDocument } from '@ecomm-sync/contracts';
import { OAUTH_BODY_SCHEMAS as body, oauthErrorSchema, oauthGrantAnswerSchema } from './oauth-schemas';

// The hosted CRM's OAuth token endpoint for the built-in CRM's accounts, and the admin call that
// registers a client, in the CRM's OpenAPI document.

const TOKEN_PATH = '/oauth/v1/token';

export const OAUTH_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/crm/admin/v1/accounts/{portalId}/oauth-grants',
    tag: 'Admin',
    summary: 'Register an OAuth client for the account and get its refresh token for POST /oauth/v1/token',
    security: [{ adminToken: [] }],
    pathParams: { portalId: { description: 'The portal', schema: { type: 'integer', minimum: 1 } } },
    body: { schema: body.oauthGrantBody },
    responses: {
      201: {
        description: 'The refresh token, shown once. Registering the client again replaces its secret and refresh token (the earlier one stops working)',
        schema: oauthGrantAnswerSchema,
      },
    },
    errors: [404],
  },
  {
    method: 'post',
    path: TOKEN_PATH,
    tag: 'OAuth',
    summary: "The hosted CRM's token endpoint, refresh grant only: an access token that opens the objects API like the account's token, for expires_in seconds",
    security: [],
    body: { schema: oauthRefreshFormSchema, contentType: 'application/x-www-form-urlencoded' },
    responses: { 200: { description: 'A new access token; the refresh token stays the same', schema: oauthTokensSchema } },
    errors: [413, 415],
  },
];

/** The token endpoint's 400 is the hosted CRM's OAuth error body, not the common one the builder gives every 400. */
export function withOAuthErrorAnswer(document: OpenApiDocument): OpenApiDocument {
  const schema = toOpenApiSchema(oauthErrorSchema, document.components.schemas);
  const post = document.paths[TOKEN_PATH].post as { responses: Record<string, Json> };
  post.responses['400'] = {
    description: 'A missing field, a grant other than refresh_token, an unknown client or wrong secret, or a refresh token not issued to this client',
    content: { 'application/json': { schema } },
  };
  return document;
}
