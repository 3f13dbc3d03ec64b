import { plainMessage } from './plain-messages';
import type { CredentialKind, Session } from './session';

/** A refused request, with the message of the service's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

/** An answer's JSON body; undefined when it has none or is not JSON (a proxy's page, a 431 from the HTTP layer). */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Calls the gateway with the session's credential, as the endpoint expects it. */
export async function api<T>(
  credential: { kind: CredentialKind; secret: string; appId?: string },
  path: string,
  options: { method?: string; query?: Query; body?: unknown } = {},
): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { accept: 'application/json' };
  // An API key in its header, not as ?hapikey=: URLs end up in proxies' access logs.
  if (credential.kind === 'portal-key' || credential.kind === 'developer-key') headers['x-api-key'] = credential.secret;
  else headers.authorization = `Bearer ${credential.secret}`;
  if (credential.kind === 'developer-key' && credential.appId) url.searchParams.set('appId', credential.appId);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The service cannot be reached; check your connection. The page retries by itself.');
  }
  const text = await response.text();
  const body = parseJson(text);
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : `The service answered ${response.status}`;
    // Refused logins past the throttle answer 429, but waiting does not help: the credential is bad.
    // As a refusal (401), pages stop polling with it, which would only prolong the throttle.
    const badCredential = response.status === 429 && message.startsWith('Too many failed authentication attempts');
    throw new ApiError(badCredential ? 401 : response.status, plainMessage(response.status, message));
  }
  // A success without JSON (a sign-in page of a proxy in front of the service, answered 200) is no
  // answer of the service: a page given undefined would show "Loading…" for ever.
  if (response.status !== 204 && text && body === undefined) {
    throw new ApiError(response.status, `The service's address answered ${response.status} with something that is not its JSON (a proxy in between?)`);
  }
  return body as T;
}

export const sessionApi = <T>(session: Session, path: string, options?: Parameters<typeof api>[2]) => api<T>(session, path, options);
