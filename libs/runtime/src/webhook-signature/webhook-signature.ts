import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of the outbound webhooks (reference/vendor-api-notes.md, "Signatures"). The service
 * signs with the application's client secret; integrators verify with `verifyWebhook`.
 */
export const WEBHOOK_SIGNATURE_HEADERS = {
  v1: 'x-crm-signature',
  version: 'x-crm-signature-version',
  v3: 'x-crm-signature-v3',
  timestamp: 'x-crm-request-timestamp',
} as const;

/** v1: hex(sha256(secret + body)). */
export const signV1 = (secret: string, rawBody: string): string =>
  createHash('sha256')
    .update(secret + rawBody, 'utf8')
    .digest('hex');

/** v2: hex(sha256(secret + METHOD + full URI + body)). */
export const signV2 = (secret: string, method: string, uri: string, rawBody: string): string =>
  createHash('sha256')
    .update(secret + method.toUpperCase() + uri + rawBody, 'utf8')
    .digest('hex');

/** v3: base64(HMAC-SHA256(secret, METHOD + full URI + body + timestamp)). */
export const signV3 = (secret: string, method: string, uri: string, rawBody: string, timestamp: number | string): string =>
  createHmac('sha256', secret)
    .update(method.toUpperCase() + uri + rawBody + String(timestamp), 'utf8')
    .digest('base64');

/**
 * The URI a receiver sees of a request to `url`, the one the v3 signature covers: normalised as an
 * HTTP client sends it (a path of "/" when none, scheme and host in lower case, a default port
 * dropped, the query encoded), without user info (sent as a basic authorization) or a fragment
 * (never sent).
 */
export function uriAsReceived(url: string): string {
  const seen = new URL(url);
  Object.assign(seen, { username: '', password: '', hash: '' });
  return seen.href;
}

export interface SignedHeaders {
  'x-crm-signature': string;
  'x-crm-signature-version': 'v1';
  'x-crm-signature-v3': string;
  'x-crm-request-timestamp': string;
}

export interface WebhookRequest {
  method: string;
  /** The full URI the request was sent to, as the sender addressed it. */
  uri: string;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

const same = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const header = (headers: WebhookRequest['headers'], name: string): string | undefined => {
  const value = headers[name] ?? headers[Object.keys(headers).find((key) => key.toLowerCase() === name) ?? ''];
  return Array.isArray(value) ? value[0] : value;
};

export type SignatureVersion = 'v1' | 'v2' | 'v3';

export interface VerifyOptions {
  /**
   * The versions a receiver accepts; v3 only by default. v1 and v2 sign no timestamp, so a captured
   * request verifies for ever: accept them only for an old sender, knowing that.
   */
  accept?: readonly SignatureVersion[];
  /** The receiver's clock (epoch ms). */
  now?: number;
  /** How old a v3 timestamp may be (5 minutes by default, against replays). */
  maxAgeMs?: number;
}

/**
 * For integrators: whether a webhook request is genuine, by the signature versions the receiver
 * accepts. A request without an accepted signature is refused: dropping the v3 header never falls
 * back to a v1 signature the receiver did not ask for. Comparisons are constant-time.
 */
export function verifyWebhook(
  secret: string,
  request: WebhookRequest,
  { accept = ['v3'], now = Date.now(), maxAgeMs = 5 * 60 * 1000 }: VerifyOptions = {},
): { ok: true } | { ok: false; reason: string } {
  const v3 = header(request.headers, WEBHOOK_SIGNATURE_HEADERS.v3);
  if (v3 !== undefined && accept.includes('v3')) {
    const timestamp = header(request.headers, WEBHOOK_SIGNATURE_HEADERS.timestamp);
    if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'X-Crm-Request-Timestamp is missing or not epoch milliseconds' };
    if (Math.abs(now - Number(timestamp)) > maxAgeMs) return { ok: false, reason: 'X-Crm-Request-Timestamp is older than allowed (a replay?)' };
    return same(v3, signV3(secret, request.method, request.uri, request.rawBody, timestamp))
      ? { ok: true }
      : { ok: false, reason: 'X-Crm-Signature-v3 does not match' };
  }
  if (!accept.includes('v1') && !accept.includes('v2')) return { ok: false, reason: `no accepted signature (${accept.join(', ')}) on the request` };
  const signature = header(request.headers, WEBHOOK_SIGNATURE_HEADERS.v1);
  if (signature === undefined) return { ok: false, reason: 'no signature header' };
  const version = header(request.headers, WEBHOOK_SIGNATURE_HEADERS.version) ?? 'v1';
  if (version !== 'v1' && version !== 'v2') return { ok: false, reason: `X-Crm-Signature-Version "${version}" is not v1 or v2` };
  if (!accept.includes(version)) return { ok: false, reason: `X-Crm-Signature ${version} is not accepted (${accept.join(', ')})` };
  const expected = version === 'v2' ? signV2(secret, request.method, request.uri, request.rawBody) : signV1(secret, request.rawBody);
  return same(signature, expected) ? { ok: true } : { ok: false, reason: `X-Crm-Signature (${version}) does not match` };
}
