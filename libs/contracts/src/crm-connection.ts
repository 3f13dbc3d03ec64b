import type { FromWireSchema } from './validation';

/**
 * A portal's CRM connection (decision 22): the built-in CRM, or a hosted CRM with the same objects
 * API, with its auth and its limits. Secrets appear only in `CrmConnection` (what the resolver
 * uses, in memory) and in the admin API's request body; never in an answer.
 */

/** What a CRM account allows; the request budget (another lib) enforces it per account. */
export interface CrmLimits {
  /** Requests per rolling 10 seconds. */
  burstPer10s: number;
  /** Requests per day, or null: no daily cap. */
  dailyCap: number | null;
  /** IANA time zone in which the CRM's day (and the daily cap) starts. */
  timeZone: string;
  /** Search requests per second, or null: only the burst counts. */
  searchPerSecond: number | null;
}

export const CRM_TIERS = ['starter', 'professional', 'enterprise'] as const;
/** The hosted CRM's subscription tiers; `enterprise` means enterprise with the API limit add-on. */
export type CrmTier = (typeof CRM_TIERS)[number];

/** The hosted CRM's published limits per tier (search is 4 per second on every tier). */
export const CRM_TIER_LIMITS: Readonly<Record<CrmTier, CrmLimits>> = {
  starter: { burstPer10s: 100, dailyCap: 250_000, timeZone: 'UTC', searchPerSecond: 4 },
  professional: { burstPer10s: 190, dailyCap: 625_000, timeZone: 'UTC', searchPerSecond: 4 },
  enterprise: { burstPer10s: 250, dailyCap: 1_000_000, timeZone: 'UTC', searchPerSecond: 4 },
};

/** The tier a hosted connection gets when it names neither a tier nor every limit. */
export const DEFAULT_CRM_TIER: CrmTier = 'starter';

export type HostedCrmAuth = { type: 'private-app'; token: string } | { type: 'oauth'; clientId: string; clientSecret: string; refreshToken: string };

export type CrmConnection = { kind: 'builtin'; limits: CrmLimits | null } | { kind: 'hosted'; baseUrl: string; auth: HostedCrmAuth; limits: CrmLimits };

/** What the admin API answers about a connection: never a secret. */
export interface CrmConnectionView {
  portalId: number;
  kind: CrmConnection['kind'];
  /** The hosted CRM's base URL; null for the built-in CRM. */
  baseUrl: string | null;
  authType: 'builtin-token' | HostedCrmAuth['type'];
  /** OAuth only. */
  clientId: string | null;
  /** A public id of the secret in use (changes whenever the secret is set again). */
  credentialId: string;
  limits: CrmLimits | null;
  /** When an OAuth access token was last obtained (ISO 8601), or null. */
  lastTokenRefreshAt: string | null;
  /** When the connection was last set (ISO 8601), or null: never set, the default built-in one. */
  changedAt: string | null;
}

const secret = { type: 'string', minLength: 8, maxLength: 4096 } as const;
/** `required` in a sub-schema, with the names declared there too (ajv's strict mode asks for it). */
function has<const N extends readonly string[]>(...names: N) {
  return { required: names, properties: Object.fromEntries(names.map((name) => [name, true])) as { [K in N[number]]: true } };
}
const positive = { type: 'integer', minimum: 1, maximum: 1_000_000_000 } as const;

const limitsSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    burstPer10s: positive,
    dailyCap: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000_000 },
    timeZone: { type: 'string', minLength: 1, maxLength: 64 },
    searchPerSecond: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000 },
  },
} as const;

/** JSON Schema of `CrmConnectionInput`: closed, and each kind and auth type takes only its own fields. */
export const crmConnectionInputSchema = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: {
    kind: { enum: ['builtin', 'hosted'] },
    baseUrl: {
      type: 'string',
      maxLength: 2000,
      format: 'uri',
      pattern: '^https?://[^/]',
      errorHint: 'must be an http or https URL (https://api.crm.example.com)',
    },
    auth: {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: { enum: ['private-app', 'oauth'] },
        token: secret,
        clientId: { type: 'string', minLength: 1, maxLength: 200 },
        clientSecret: secret,
        refreshToken: secret,
      },
      if: { properties: { type: { const: 'private-app' } } },
      then: {
        ...has('token'),
        not: { anyOf: [has('clientId'), has('clientSecret'), has('refreshToken')] },
        errorHint: 'of type private-app takes a token only (clientId, clientSecret and refreshToken are for oauth)',
      },
      else: {
        if: { properties: { type: { const: 'oauth' } } },
        then: {
          ...has('clientId', 'clientSecret', 'refreshToken'),
          not: has('token'),
          errorHint: 'of type oauth takes clientId, clientSecret and refreshToken, not a token',
        },
      },
    },
    tier: { enum: [...CRM_TIERS] },
    limits: limitsSchema,
  },
  if: { properties: { kind: { const: 'hosted' } } },
  then: {
    required: ['baseUrl', 'auth'],
    properties: {
      baseUrl: true,
      auth: true,
      limits: { type: 'object', errorHint: "must be an object for kind hosted (leave it out to take the tier's limits)" },
    },
  },
  else: { not: { anyOf: [has('baseUrl'), has('auth')] }, errorHint: 'of kind builtin takes no baseUrl or auth (they are for kind hosted)' },
} as const;
/** `PUT /admin/v1/portals/{id}/crm-connection`: a tier stands for its limits; `limits` fields override it. */
export type CrmConnectionInput = FromWireSchema<typeof crmConnectionInputSchema>;
