import type { SecurityRequirement } from './openapi-builder';

/** SPEC.md "Authentication" as OpenAPI security schemes; a requirement naming two needs both. */
export const SECURITY_SCHEMES = {
  portalKey: {
    type: 'apiKey',
    in: 'query',
    name: 'hapikey',
    description: "A portal's API key (direct mode): `pk-...`; also taken in the `X-Api-Key` header (portalKeyHeader), which keeps it out of URLs.",
  },
  developerKey: {
    type: 'apiKey',
    in: 'query',
    name: 'hapikey',
    description:
      "A developer account's API key: `dk-...`; with `appId` where the operation says so; also taken in the `X-Api-Key` header (developerKeyHeader).",
  },
  portalKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: "A portal's API key in a header instead of the query (`hapikey` wins when both are sent): kept out of URLs and access logs.",
  },
  developerKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: "A developer account's API key in a header instead of the query (`hapikey` wins when both are sent).",
  },
  appId: {
    type: 'apiKey',
    in: 'query',
    name: 'appId',
    description: 'The application (application mode): with a developer key, or with the portal key of a customer starting an import.',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A private-app token (`pat-...`, accepted wherever a portal key is) or the OAuth access token of an application installed in a portal (`oat-...`, application mode).',
  },
  oauthToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The OAuth access token of an application installed in a portal (`oat-...`); an API key is refused.',
  },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token `ADMIN_TOKEN` of the admin API.' },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;
const needs = (...schemes: Scheme[]): SecurityRequirement => Object.fromEntries(schemes.map((scheme) => [scheme, []]));

/** The credentials each group of endpoints takes (docs/api.md "Credentials"). */
export const CREDENTIALS = {
  /** The customer's data: portal key or private-app token (direct mode), OAuth token (application mode). */
  customerData: [needs('portalKey'), needs('portalKeyHeader'), needs('bearerToken')],
  /** Settings: the portal's own (key or private-app token), or an application's (developer key and appId). */
  settingsOwner: [needs('portalKey'), needs('portalKeyHeader'), needs('bearerToken'), needs('developerKey', 'appId'), needs('developerKeyHeader', 'appId')],
  /** GET /v1/sync-errors: the portal's, an application's everywhere, or an application's in one portal. */
  v1ErrorScope: [needs('portalKey'), needs('portalKeyHeader'), needs('bearerToken'), needs('developerKey', 'appId'), needs('developerKeyHeader', 'appId')],
  /** A portal's every error: its key or private-app token. */
  portalAccount: [needs('portalKey'), needs('portalKeyHeader'), needs('bearerToken')],
  /** An application's errors everywhere: its developer's key (the appId is in the path). */
  developerApplication: [needs('developerKey'), needs('developerKeyHeader')],
  /** The application's OAuth token only: import pages and ends, its errors in the portal. */
  installedApplication: [needs('oauthToken')],
  /** Starting or reading an import: the customer (portal key with appId) or the application's token. */
  importingApplication: [needs('portalKey', 'appId'), needs('portalKeyHeader', 'appId'), needs('bearerToken')],
  /** The console's readers: a customer (portal key, private-app or OAuth token) or an integrator (developer key and appId). */
  consoleUser: [needs('portalKey'), needs('portalKeyHeader'), needs('bearerToken'), needs('developerKey', 'appId'), needs('developerKeyHeader', 'appId')],
  admin: [needs('adminToken')],
  none: [],
} as const satisfies Record<string, readonly SecurityRequirement[]>;
