import type { CrmExchangeMessage } from './crm-exchange';
import { answerTextOf } from './crm-json';

/** The most bytes of a request or answer body kept in the request log; the rest is cut and marked. */
export const MAX_LOGGED_BODY_BYTES = 16 * 1024;

export const REDACTED = '[redacted]';

/** What a field or header name holds when its value is a secret (lower case; SECRET_NAME adds `code` alone). */
export const SECRET_NAME_WORDS: readonly string[] = Object.freeze([
  'authorization',
  'token',
  'secret',
  'password',
  'passwd',
  'api[-_]?key',
  'hapikey',
  'cookie',
  'credential',
  'signature',
]);

/** Names of fields and headers whose values are secrets, wherever they appear. */
const SECRET_NAME = new RegExp(`${SECRET_NAME_WORDS.join('|')}|^code$`, 'i');

/**
 * A secret inside a string: a bearer or basic credential, after white space or, in JSON text, the
 * escape of white space (`Bearer\tabc`, `Bearer\u000babc` are written so). With the `i` flag the
 * escapes match in upper case too (`\N`): that cuts a word after "Basic" at worst, never a secret.
 */
const BEARER_OR_BASIC = /\b(Bearer|Basic)(?:\s|\\[tnrfb]|\\u00(?:0[9a-d]|20))+[A-Za-z0-9._~+/=-]+/gi;
/** A secret inside a string: a query or form parameter that holds one. */
const SECRET_PARAMETER = /\b(hapikey|access_token|refresh_token|client_secret|id_token|api_?key|token|code)=[^&\s"'#]*/gi;

/** The text with the given secrets (a connection's token) and every secret-shaped part replaced. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let redacted = text;
  // Secrets of fewer than 8 characters would match ordinary text; tokens are far longer.
  for (const secret of secrets) if (secret.length >= 8) redacted = redacted.split(secret).join(REDACTED);
  redacted = redacted.replace(BEARER_OR_BASIC, `$1 ${REDACTED}`);
  // A parameter needs its "=": a CRM body of 30 KB without one (most are) skips a scan that cost a tenth of its redaction.
  return redacted.includes('=') ? redacted.replace(SECRET_PARAMETER, `$1=${REDACTED}`) : redacted;
}

/**
 * What JSON text holds, lower-cased, when it may not be kept as it came: one of SECRET_NAME's words
 * or `"code"` (a field it names), or an escape that JSON.stringify would not write back, so that
 * the text differs from what the redaction of the parsed body sees: `\u0074oken` could spell a
 * word, and `\/` breaks a credential (`Basic dXNl\/cjpw`) or the connection's token in two for
 * the patterns that find them. Other escapes (`\n`, `\"`) come back as they were.
 * (Lower-casing first and matching without the `i` flag takes a third of the time on 30 KB.)
 */
const MAY_HIDE_A_SECRET = new RegExp(`${SECRET_NAME_WORDS.join('|')}|"code"|\\\\[u/]`);

/** JSON text of `value` with the value of every secret-named field replaced, at any depth. */
const jsonWithoutSecretFields = (value: unknown): string =>
  JSON.stringify(value, (name, field: unknown) => (name !== '' && SECRET_NAME.test(name) && field !== null && field !== undefined ? REDACTED : field));

/** The text cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
function cut(text: string, maxBytes: number): { text: string; bytes: number; truncated: boolean } {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, bytes, truncated: false };
  // Only the first maxBytes characters can reach the first maxBytes bytes (each takes one at least), so only they
  // are encoded; a surrogate pair split at the end starts no earlier than the last byte kept, which is held back.
  // A decoder in stream mode holds back a character cut in two instead of inventing one.
  const head = new TextDecoder('utf-8').decode(Buffer.from(text.slice(0, maxBytes)).subarray(0, maxBytes), { stream: true });
  return { text: head, bytes, truncated: true };
}

/** A body as the SDK or axios holds it (an object, JSON text or other text), parsed when it is JSON text. */
export function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/**
 * A request's or answer's headers and body (text, an answer with the text it was parsed from, or
 * an object) as the request log keeps them: secret fields, headers and parameters replaced by
 * "[redacted]", the known `secrets` too wherever they appear, the body cut at `maxBytes` (marked
 * `truncated`; `bytes` is the size of the text kept before the cut, as it came when it is kept so).
 */
export function redactedMessage(
  headers: Record<string, string | undefined>,
  body: unknown,
  secrets: readonly string[],
  maxBytes = MAX_LOGGED_BODY_BYTES,
): CrmExchangeMessage {
  const keptHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) keptHeaders[name.toLowerCase()] = SECRET_NAME.test(name) ? REDACTED : redactText(value, secrets);
  if (body === undefined || body === null || body === '') return { headers: keptHeaders, body: null, bytes: 0, truncated: false };
  const text = redactText(bodyText(body), secrets);
  const bounded = cut(text, maxBytes);
  return { headers: keptHeaders, body: bounded.text, bytes: bounded.bytes, truncated: bounded.truncated };
}

/**
 * A body as text without its secret fields. Text that cannot hide one (MAY_HIDE_A_SECRET: the
 * SDK's requests, answers with the text they were parsed from) is kept as it came, neither parsed
 * nor encoded again; text that is not JSON is kept as text; anything else as JSON without its
 * secret fields. redactText then runs over the result either way.
 */
function bodyText(body: unknown): string {
  // A form body: its parameters, each secret-named one's value redacted as a JSON field's would be (JSON would make `{}` of it).
  if (body instanceof URLSearchParams)
    return [...body]
      .map(([name, value]) =>
        SECRET_NAME.test(name) ? `${new URLSearchParams({ [name]: '' }).toString()}${REDACTED}` : new URLSearchParams({ [name]: value }).toString(),
      )
      .join('&');
  const text = typeof body === 'string' ? body : answerTextOf(body);
  if (text !== undefined && !MAY_HIDE_A_SECRET.test(text.toLowerCase())) return text;
  const content = parsedBody(body);
  return typeof content === 'string' ? content : jsonWithoutSecretFields(content);
}

/** A base URL as the log names the connection: no user, password, query or fragment. */
export function loggedBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return redactText(baseUrl);
  }
}
