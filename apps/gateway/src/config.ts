import { amqpKeys, commonKeys, crmRequestLogKeys, intakePaceKeys, loadConfig, mongoKeys, secretsRotationKeys, type ConfigSchema } from '@ecomm-sync/runtime';
import { REFRESH_WINDOW_SECONDS, REFRESHES_PER_INSTALL } from './use-cases/oauth-refresh-limit';
import { ACCESS_TOKEN_TTL_SECONDS, ACCESS_TOKENS_PER_INSTALL, REFRESH_REUSE_SECONDS } from './use-cases/oauth-tokens';

export const gatewayConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  ...crmRequestLogKeys,
  ...intakePaceKeys,
  GATEWAY_PORT: { doc: 'port the gateway listens on', format: 'port', default: 3000 },
  GATEWAY_METRICS_PORT: {
    doc: "the gateway's internal port: /metrics (never on GATEWAY_PORT: metrics name portals), /healthz and /readyz; keep it off the ingress",
    format: 'port',
    default: 3001,
  },
  GATEWAY_BODY_LIMIT: {
    doc: 'largest accepted request body (bigger ones answer 413); keep it well under 16mb, the largest message the broker takes (a batch it cannot take answers 413 too)',
    format: 'string',
    default: '4mb',
  },
  ADMIN_TOKEN: { doc: 'bearer token of the admin API', format: 'string', sensitive: true, productionSecret: true },
  SECRETS_KEY: {
    doc: 'key (at least 16 characters; use 32 random bytes, base64) that seals application client secrets and CRM secrets (portal CRM tokens, hosted CRM credentials) at rest, and the alert destinations’ URLs and webhook signing secrets; the applier, the webhook-dispatcher, the alert-evaluator and the CLI need the same one',
    format: 'string',
    sensitive: true,
    productionSecret: true,
  },
  ...secretsRotationKeys,
  GATEWAY_LOOKUP_CACHE_MS: {
    doc: 'how long a credential found by its secret and a known store are remembered (0: look up on every request); revocations clear it in every replica at once',
    format: 'int',
    default: 2000,
  },
  RATE_LIMIT_REQUESTS: {
    doc: "requests one credential may make per RATE_LIMIT_WINDOW_MS in one gateway replica, an install's OAuth access tokens together (0: no limit); over it: 429 with Retry-After",
    format: 'int',
    default: 600,
  },
  RATE_LIMIT_WINDOW_MS: { doc: 'the rate limit window', format: 'int', default: 10_000 },
  LANE_SHARE_OBJECTS_PER_SECOND: {
    doc: "objects a second one portal's sync batches may send on the interactive lanes, per gateway replica; what it sends beyond goes on the bulk lanes, consumed beside them, so one portal's backlog never delays another portal's steady traffic (0: one lane)",
    format: 'int',
    default: 200,
  },
  LANE_SHARE_BURST_OBJECTS: {
    doc: "objects one portal may send at once on the interactive lanes before LANE_SHARE_OBJECTS_PER_SECOND applies; at least one whole batch (200) while the share is on, and that by default, so that a flood's first batches do not share the interactive lanes with other portals' traffic (decision 45)",
    format: 'int',
    default: 200,
  },
  INTAKE_MAX_HELD_BYTES: {
    doc: "request bytes one gateway replica holds while their batches wait for their portals' intake pace, all portals together; beyond it a batch that would wait gets 429 with Retry-After at once",
    format: 'int',
    default: 32 * 1024 * 1024,
  },
  AUTH_FAILURE_LIMIT: {
    doc: 'failed authentications (401) one client address, one presented credential or one OAuth client_id may make per AUTH_FAILURE_WINDOW_MS in one gateway replica (0: no limit); over it, a failing request gets 429 with Retry-After instead of 401; a right credential always goes through',
    format: 'int',
    default: 20,
  },
  AUTH_FAILURE_WINDOW_MS: { doc: 'the window of AUTH_FAILURE_LIMIT', format: 'int', default: 60_000 },
  OAUTH_ACCESS_TOKEN_TTL_S: {
    doc: 'seconds an OAuth access token lives (refresh with POST /oauth/v1/token)',
    format: 'int',
    default: ACCESS_TOKEN_TTL_SECONDS,
  },
  OAUTH_ROTATE_REFRESH_TOKENS: {
    doc: "each OAuth refresh answers a new refresh token and the one presented is used up (rotation); false: a refresh token lasts until its install or the token is revoked, and a refresh answers it again, as the vendor's OAuth does (applications that keep their install's refresh token go on working). The same in every gateway replica (each logs its mode as it starts)",
    format: 'boolean',
    default: false,
  },
  OAUTH_REFRESH_REUSE_S: {
    doc: "with OAUTH_ROTATE_REFRESH_TOKENS: seconds a used OAuth refresh token may be presented again when the answer to its use was lost: it then buys a new pair, and the lost pair is revoked, as long as that pair was not used (0: a used refresh token is always refused). In either mode a refresh deletes the install's access tokens expired longer ago than this and than OAUTH_ACCESS_TOKEN_TTL_S",
    format: 'int',
    default: REFRESH_REUSE_SECONDS,
  },
  OAUTH_ACCESS_TOKENS_PER_INSTALL: {
    doc: "how many of an install's OAuth access tokens are kept (expired ones among them until they are deleted): a refresh or an install beyond it deletes the install's oldest, which then answer 401 (0: no limit). Room for as many processes of one application as refresh each for themselves; a client refreshing in a loop cannot fill the database. Keep it well above the processes that refresh at once: more refreshes at the same time than it allows may delete each other's new tokens",
    format: 'int',
    offOrAtLeast: 2,
    default: ACCESS_TOKENS_PER_INSTALL,
  },
  OAUTH_REFRESH_LIMIT: {
    doc: "token refreshes one install may make per OAUTH_REFRESH_WINDOW_S in one gateway replica, counted once the client authenticated and its token is a refresh token of a live install (0: no limit; a lost answer's first retries pass uncounted); over it: 429 with Retry-After. Each refresh stores a token: a client refreshing in a loop is held to this. Room for as many processes of one application as refresh each for themselves",
    format: 'int',
    default: REFRESHES_PER_INSTALL,
  },
  OAUTH_REFRESH_WINDOW_S: { doc: 'the window of OAUTH_REFRESH_LIMIT, in seconds', format: 'int', atLeast: 1, atMost: 86_400, default: REFRESH_WINDOW_SECONDS },
  CRM_BASE_URL: { doc: 'base URL of the built-in CRM (its admin API makes accounts for new portals)', format: 'url', default: 'http://127.0.0.1:3100' },
  CRM_ALLOW_HTTP: {
    doc: "let a portal's hosted CRM connection use http (development and tests); otherwise only https, since every request carries the account's token",
    format: 'boolean',
    default: false,
  },
  CRM_MAX_WAIT_MS: {
    doc: "longest a CRM request of an install or store change waits (the account's request budget, 429s, a CRM not answering) before the caller gets 502",
    format: 'int',
    default: 3000,
  },
  GATEWAY_PUBLIC_URL: {
    doc: 'the URL integrators reach the gateway at (https://sync.example.com); links in answers (paging) are built from it. Unset: links are relative (a path), never taken from the Host or X-Forwarded-* headers',
    format: 'url',
    optional: true,
  },
  GATEWAY_TRUSTED_PROXIES: {
    doc: "the proxies in front of the gateway whose X-Forwarded-* headers are believed (express 'trust proxy': loopback, linklocal, uniquelocal, addresses or CIDRs, comma separated). Unset: none",
    format: 'string',
    optional: true,
  },
  CONSOLE_DIR: {
    doc: 'folder of the web console build served under /console (nx build console); unset: dist/apps/console beside the gateway bundle',
    format: 'string',
    optional: true,
  },
  SERVICE_READINESS_URLS: {
    doc: "the services whose readiness the console's operations page shows, as name=base URL pairs separated by commas (each answers GET <url>/readyz); every address a host resolves to is asked as one replica (in Kubernetes: headless Services); the gateway is added first unless named",
    format: 'string',
    default:
      'mapper=http://127.0.0.1:3201,applier=http://127.0.0.1:3202,import-coordinator=http://127.0.0.1:3203,webhook-dispatcher=http://127.0.0.1:3204,alert-evaluator=http://127.0.0.1:3205,crm=http://127.0.0.1:3100',
  },
} as const satisfies ConfigSchema;

export const loadGatewayConfig = () => loadConfig(gatewayConfigSchema);
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
