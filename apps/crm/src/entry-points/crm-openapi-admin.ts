import type { ApiOperation, ApiParameter } from '@ecomm-sync/contracts';
import { CRM_BODY_SCHEMAS as body } from './schemas';

// The built-in CRM's admin API (accounts, their emulated limits and usage), in the CRM's OpenAPI document.

const admin = [{ adminToken: [] }];
const object = { type: 'object' } as const;
const ok = (description: string, schema: object = object) => ({ 200: { description, schema } });
const portalId: ApiParameter = { description: 'The portal', schema: { type: 'integer', minimum: 1 } };

export const ADMIN_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'put',
    path: '/crm/admin/v1/accounts/{portalId}',
    tag: 'Admin',
    summary: "Create or update a portal's account",
    security: admin,
    pathParams: { portalId },
    body: { schema: body.accountBody },
    responses: ok('{portalId, pipelineLimit}'),
  },
  {
    method: 'put',
    path: '/crm/admin/v1/accounts/{portalId}/limits',
    tag: 'Admin',
    summary: 'The hosted limits the account emulates (null: none)',
    security: admin,
    pathParams: { portalId },
    body: { schema: { anyOf: [body.limitsBody, { type: 'null' }] } },
    responses: ok('{portalId, limits, source}'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/crm/admin/v1/accounts/{portalId}/limits',
    tag: 'Admin',
    summary: 'The limits in force',
    security: admin,
    pathParams: { portalId },
    responses: ok('{portalId, limits, source}'),
    errors: [404],
  },
  {
    method: 'post',
    path: '/crm/admin/v1/accounts/{portalId}/limits/reset-daily',
    tag: 'Admin',
    summary: 'Reset the daily count',
    security: admin,
    pathParams: { portalId },
    body: { schema: body.resetDailyBody, required: false },
    responses: ok('{portalId, dailyUsed, nextResetAt}'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/crm/admin/v1/accounts/{portalId}/usage',
    tag: 'Admin',
    summary: "The account's requests per second and per day",
    security: admin,
    pathParams: { portalId },
    responses: ok('The usage'),
    errors: [404],
  },
];
