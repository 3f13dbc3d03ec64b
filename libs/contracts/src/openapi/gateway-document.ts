import { errorBodySchema } from '../api-responses';
import { GATEWAY_ADMIN_OPERATIONS, GATEWAY_OAUTH_OPERATIONS } from './admin-operations';
import { GATEWAY_CONSOLE_ALERT_OPERATIONS } from './console-alerts';
import { GATEWAY_CONSOLE_OPERATIONS } from './console-operations';
import { GATEWAY_SYNC_OPERATIONS } from './gateway-operations';
import { buildOpenApiDocument, type ApiOperation } from './openapi-builder';
import { CREDENTIALS, SECURITY_SCHEMES } from './security';

const health = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, failing: { type: 'array', items: { type: 'string' } } },
} as const;

/** Operations every service serves: health, metrics, and this document with its page. */
export const SERVICE_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'The process is up',
    security: CREDENTIALS.none,
    responses: { 200: { description: 'Up', schema: health } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'MongoDB and RabbitMQ answer',
    security: CREDENTIALS.none,
    responses: { 200: { description: 'Ready', schema: health }, 503: { description: 'Not ready: `failing` names what does not answer', schema: health } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Operations',
    summary: 'This document (OpenAPI 3.1)',
    security: CREDENTIALS.none,
    responses: { 200: { description: 'The document', schema: { type: 'object' } } },
  },
  {
    method: 'get',
    path: '/docs',
    tag: 'Operations',
    summary: 'This document as a web page (Swagger UI)',
    security: CREDENTIALS.none,
    responses: { 200: { description: 'An HTML page' } },
  },
  {
    method: 'get',
    path: '/docs/swagger-initializer.js',
    tag: 'Operations',
    summary: 'The script of the page: Swagger UI over /openapi.json',
    security: CREDENTIALS.none,
    responses: { 200: { description: 'JavaScript' } },
  },
];

export const GATEWAY_OPERATIONS: readonly ApiOperation[] = [
  ...GATEWAY_SYNC_OPERATIONS,
  ...GATEWAY_OAUTH_OPERATIONS,
  ...GATEWAY_ADMIN_OPERATIONS,
  ...GATEWAY_CONSOLE_OPERATIONS,
  ...GATEWAY_CONSOLE_ALERT_OPERATIONS,
  ...SERVICE_OPERATIONS,
];

/** The gateway's OpenAPI 3.1 document: the route table above with the wire schemas of libs/contracts. */
export function gatewayOpenApiDocument(version = '1') {
  return buildOpenApiDocument({
    title: 'ecomm-sync gateway',
    version,
    description:
      'The ecommerce sync API (SPEC.md v1 and v2), OAuth token refresh and the admin API. Every failure answers `{"status":"error","message","requestId"}`. Built from the JSON Schemas that validate the requests (libs/contracts).',
    securitySchemes: SECURITY_SCHEMES,
    errorSchema: errorBodySchema,
    operations: GATEWAY_OPERATIONS,
  });
}
