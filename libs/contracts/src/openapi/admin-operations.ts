import { adminAnswerSchema, adminListSchema, namedSchema, newAppSchema, newInstallSchema, newPortalSchema, portalChangeSchema } from '../admin-api';
import { oauthRefreshFormSchema, oauthTokensSchema } from '../api-responses';
import { crmConnectionInputSchema } from '../crm-connection';
import type { ApiOperation, ApiParameter } from './openapi-builder';
import { CREDENTIALS } from './security';

const security = CREDENTIALS.admin;
const id = (description: string): ApiParameter => ({ description, schema: { type: 'integer', minimum: 1 } });
const portalId = id('The portal');
const created = (description: string) => ({ 201: { description, schema: adminAnswerSchema } });
const answer = (description: string) => ({ 200: { description, schema: adminAnswerSchema } });
const list = (description: string) => ({ 200: { description, schema: adminListSchema } });
const done = (description: string) => ({ 204: { description } });
const optionalBody = (schema: object) => ({ schema, required: false });
const filter = (description: string, schema: object = { type: 'integer', minimum: 1 }): ApiParameter => ({ description, schema });

/** A page of a listing (keyset paging): `limit` records after the key `after` that the page before named in `paging.next.after`. */
const page = (after: string): Record<string, ApiParameter> => ({
  limit: { description: 'How many at most (default 100)', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
  after: { description: `Go on after this key: ${after}, from the page before's paging.next.after`, schema: { type: 'string' } },
});

const admin = (operation: Omit<ApiOperation, 'tag' | 'security'>): ApiOperation => ({
  ...operation,
  tag: 'Admin',
  security,
  errors: [...(operation.errors ?? []), 403],
});

/** The operator's admin API (`Authorization: Bearer <ADMIN_TOKEN>`). */
export const GATEWAY_ADMIN_OPERATIONS: readonly ApiOperation[] = [
  admin({
    method: 'post',
    path: '/admin/v1/portals',
    summary: 'Create a portal and its built-in CRM account',
    body: optionalBody(newPortalSchema),
    responses: created('{portalId, apiKey}'),
  }),
  admin({
    method: 'get',
    path: '/admin/v1/portals',
    summary: 'List portals, in portal id order, a page at a time',
    query: page('a portal id'),
    responses: list('{results: [{portalId, name, active}], paging?: {next: {after}}}'),
    errors: [400],
  }),
  admin({
    method: 'get',
    path: '/admin/v1/portals/{portalId}',
    summary: 'A portal with its credentials and installs',
    pathParams: { portalId },
    responses: answer('The portal'),
    errors: [400, 404],
  }),
  admin({
    method: 'patch',
    path: '/admin/v1/portals/{portalId}',
    summary: "Set the portal's deal pipeline limit",
    pathParams: { portalId },
    body: { schema: portalChangeSchema },
    responses: done('Set'),
    errors: [404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/portals/{portalId}/disable',
    summary: 'Disable a portal (its messages are kept with INACTIVE_PORTAL)',
    pathParams: { portalId },
    responses: done('Disabled'),
    errors: [400, 404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/portals/{portalId}/enable',
    summary: 'Enable a portal (what was kept applies)',
    pathParams: { portalId },
    responses: done('Enabled'),
    errors: [400, 404],
  }),
  admin({
    method: 'get',
    path: '/admin/v1/portals/{portalId}/crm-connection',
    summary: "The portal's CRM connection, without secrets",
    pathParams: { portalId },
    responses: answer('The connection'),
    errors: [400, 404],
  }),
  admin({
    method: 'put',
    path: '/admin/v1/portals/{portalId}/crm-connection',
    summary: "Replace the portal's CRM connection",
    pathParams: { portalId },
    body: { schema: crmConnectionInputSchema },
    responses: answer('The connection as stored, without secrets'),
    errors: [404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/portals/{portalId}/api-key',
    summary: "Rotate the portal's API key",
    pathParams: { portalId },
    responses: created('{apiKey, credentialId}'),
    errors: [400, 404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/portals/{portalId}/private-apps',
    summary: 'Make a private-app token',
    pathParams: { portalId },
    body: optionalBody(namedSchema),
    responses: created('{token, credentialId}'),
    errors: [404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/developers',
    summary: 'Create a developer account',
    body: optionalBody(namedSchema),
    responses: created('{developerId, apiKey}'),
  }),
  admin({
    method: 'get',
    path: '/admin/v1/developers',
    summary: 'List developer accounts, in id order, a page at a time',
    query: page('a developer id'),
    responses: list('{results: [{developerId, name}], paging?: {next: {after}}}'),
    errors: [400],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/developers/{developerId}/api-key',
    summary: "Rotate a developer's API key",
    pathParams: { developerId: id('The developer') },
    responses: created('{apiKey, credentialId}'),
    errors: [400, 404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/apps',
    summary: 'Create an application',
    body: { schema: newAppSchema },
    responses: created('{appId, clientId, clientSecret}'),
    errors: [404],
  }),
  admin({
    method: 'get',
    path: '/admin/v1/apps',
    summary: 'List applications, in appId order, a page at a time',
    query: { developerId: filter('Only this developer’s'), ...page('an appId') },
    responses: list('{results: [{appId, developerId, name, clientId}], paging?: {next: {after}}}'),
    errors: [400],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/apps/{appId}/client-secret',
    summary: "Rotate an application's client secret",
    responses: created('{clientSecret}'),
    errors: [404],
  }),
  admin({
    method: 'post',
    path: '/admin/v1/installs',
    summary: 'Install an application in a portal (its first tokens)',
    body: { schema: newInstallSchema },
    responses: created('{accessToken, refreshToken, expiresIn}'),
    errors: [404],
  }),
  admin({
    method: 'get',
    path: '/admin/v1/installs',
    summary: 'List installs, by portal then application, a page at a time',
    query: { portalId: filter('Only this portal’s'), appId: filter('Only this application’s', { type: 'string' }), ...page('<portalId>:<appId>') },
    responses: list('{results: [{portalId, appId, installedAt}], paging?: {next: {after}}}'),
    errors: [400],
  }),
  admin({
    method: 'delete',
    path: '/admin/v1/installs/{portalId}/{appId}',
    summary: 'Uninstall an application (its stores and alerts removed, workflows off, tokens revoked)',
    pathParams: { portalId },
    responses: done('Uninstalled'),
    errors: [400, 404],
  }),
  admin({
    method: 'get',
    path: '/admin/v1/credentials',
    summary: 'List credentials (public ids, never secrets)',
    query: {
      portalId: filter('Only this portal’s'),
      developerId: filter('Only this developer’s'),
      appId: filter('Only this application’s', { type: 'string' }),
    },
    responses: list('{results: [credentials]}'),
    errors: [400],
  }),
  admin({ method: 'delete', path: '/admin/v1/credentials/{credentialId}', summary: 'Revoke a credential', responses: done('Revoked'), errors: [404] }),
];

export const GATEWAY_OAUTH_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/oauth/v1/token',
    tag: 'OAuth',
    summary: 'Exchange a refresh token for new tokens (the client id and secret are in the form)',
    security: CREDENTIALS.none,
    body: { schema: oauthRefreshFormSchema, contentType: 'application/x-www-form-urlencoded' },
    responses: {
      200: {
        description: 'A new access token, and the refresh token presented, which lasts (a new one, the presented used up, with OAUTH_ROTATE_REFRESH_TOKENS)',
        schema: oauthTokensSchema,
      },
    },
    errors: [401, 415, 429],
  },
];
