import axios from 'axios';
import { signV1, signV3, uriAsReceived } from '../webhook-signature';
import { refusedAnswer } from './refused-answer';
import { checkTarget, pinnedAgents, type ResolveHost } from './target-policy';

/** The longest answer read from a receiver: only its status matters here. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostJsonOptions {
  timeoutMs: number;
  /** Loopback, private and link-local targets (WEBHOOK_ALLOW_PRIVATE_TARGETS: development and tests only). */
  allowPrivateTargets: boolean;
  /** Signs the body as the import webhook is signed (X-Crm-Signature v1 and v3); absent: unsigned (Slack). */
  secret?: string;
  resolve?: ResolveHost;
  /** The time the v3 signature is made at (tests). */
  now?: () => number;
  /** Headers of the caller's own (an idempotency key); the content type and signature are set here. */
  headers?: Readonly<Record<string, string>>;
}

/** One attempt: `final` when trying again cannot help (a refused target, a 4xx other than 408 and 429); a look-up that failed for now is not. */
export type PostAttempt = { ok: true; status: number } | { ok: false; final: boolean; status: number | null; error: string };

/**
 * POSTs a JSON body once to a public unicast target (checkTarget: the host is resolved once and
 * only the checked addresses are connected to), with a timeout for the whole attempt, no redirects
 * and no proxy, optionally signed with `secret` the way the import webhook is (decision 0026).
 */
export async function postJson(url: string, body: string, options: PostJsonOptions): Promise<PostAttempt> {
  const target = await checkTarget(url, options.allowPrivateTargets, options.resolve);
  if ('refusal' in target)
    return { ok: false, final: target.final, status: null, error: target.final ? `the target was refused: ${target.refusal}` : target.refusal };
  const agents = pinnedAgents(target.addresses);
  const timestamp = (options.now ?? Date.now)();
  const signature = options.secret
    ? {
        'x-crm-signature': signV1(options.secret, body),
        'x-crm-signature-version': 'v1',
        'x-crm-signature-v3': signV3(options.secret, 'POST', uriAsReceived(url), body, timestamp),
        'x-crm-request-timestamp': String(timestamp),
      }
    : {};
  try {
    const response = await axios.post<string>(url, body, {
      timeout: options.timeoutMs,
      signal: AbortSignal.timeout(options.timeoutMs),
      maxContentLength: MAX_ANSWER_BYTES,
      maxRedirects: 0,
      ...agents,
      proxy: false,
      responseType: 'text',
      transformResponse: [(data: string) => data],
      validateStatus: () => true,
      headers: { ...options.headers, 'content-type': 'application/json', ...signature },
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, ...refusedAnswer(response.status, response.headers.location as string | undefined) };
  } catch (error) {
    const message = axios.isAxiosError(error)
      ? error.code === 'ECONNABORTED' || error.code === 'ERR_CANCELED'
        ? `no whole answer within ${options.timeoutMs} ms`
        : (error.code ?? error.message)
      : String(error);
    return { ok: false, final: false, status: null, error: message };
  } finally {
    agents.httpAgent.destroy();
    agents.httpsAgent.destroy();
  }
}
