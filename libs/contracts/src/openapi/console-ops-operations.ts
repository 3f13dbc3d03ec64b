import type { ApiOperation } from './openapi-builder';
import { CREDENTIALS } from './security';

const json = (description: string) => ({ 200: { description, schema: { type: 'object' } } });

/** The operator's console endpoints (admin token): queues, dead letters, readiness, CRM accounts and failed exchanges. */
export const GATEWAY_CONSOLE_OPS_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/console/api/v1/ops/session',
    tag: 'Console',
    summary: 'The operator signs in (admin token)',
    security: CREDENTIALS.admin,
    responses: json('The session'),
  },
  {
    method: 'get',
    path: '/console/api/v1/ops/queues',
    tag: 'Console',
    summary: "Each queue's depth, consumers, retrying and dead-lettered messages",
    security: CREDENTIALS.admin,
    responses: json('The queues'),
    errors: [503],
  },
  {
    method: 'get',
    path: '/console/api/v1/ops/queues/{queue}/dead-letters',
    tag: 'Console',
    summary: "A queue's dead-lettered messages with headers and bodies, left in place",
    security: CREDENTIALS.admin,
    pathParams: { queue: { description: 'A queue name as the queues list gives it', schema: { type: 'string' } } },
    query: { limit: { description: 'Messages to show, 1 to 100 (default 20)', schema: { type: 'integer', minimum: 1, maximum: 100 } } },
    responses: json('The messages'),
    errors: [400, 404, 503],
  },
  {
    method: 'get',
    path: '/console/api/v1/ops/services',
    tag: 'Console',
    summary: "Each service's readiness: the /readyz of every replica (each address its host resolves to), and how many are ready",
    security: CREDENTIALS.admin,
    responses: json('The services'),
  },
  {
    method: 'get',
    path: '/console/api/v1/ops/crm-accounts',
    tag: 'Console',
    summary: "Each CRM account's request budget and rate-limit state",
    security: CREDENTIALS.admin,
    responses: json('The accounts'),
    errors: [503],
  },
  {
    method: 'get',
    path: '/console/api/v1/ops/crm-exchanges/failed',
    tag: 'Console',
    summary: 'The newest failed CRM exchanges (no answer, 4xx, 5xx, 207) of one CRM account or of all, redacted',
    security: CREDENTIALS.admin,
    query: {
      account: { description: 'Only this CRM account (its key, as the CRM accounts list gives it)', schema: { type: 'string' } },
      limit: { description: 'Exchanges to show, 1 to 200 (default 50)', schema: { type: 'integer', minimum: 1, maximum: 200 } },
    },
    responses: json('The exchanges'),
    errors: [400],
  },
  {
    method: 'post',
    path: '/console/api/v1/ops/queues/{queue}/redrive',
    tag: 'Console',
    summary: "Send a queue's dead-lettered messages back to it",
    security: CREDENTIALS.admin,
    pathParams: { queue: { description: 'A queue name as the queues list gives it', schema: { type: 'string' } } },
    responses: json('How many were redriven'),
    errors: [400, 404, 503],
  },
];
