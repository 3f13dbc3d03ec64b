import axios from 'axios';
import { type ImportEventMessage, TOPICS, type WebhookRequestMessage } from '@ecomm-sync/contracts';
import { sealedFor, type Repositories, type SecretBox, type WebhookAttempt } from '@ecomm-sync/data-access';
import { checkTarget, type Logger, pinnedAgents, refusedAnswer, type ResolveHost, signV1, signV3, uriAsReceived } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';

/** The longest answer read from a receiver: its status and a small JSON body are all the import needs. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface DispatchOptions {
  timeoutMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  allowPrivateTargets: boolean;
  /** How host names are resolved, once per webhook (the system resolver by default). */
  resolve?: ResolveHost;
}

type Attempt = { ok: true; status: number; body: unknown } | { ok: false; final: boolean; status: number | null; error: string };

/**
 * Sends one signed webhook: `X-Crm-Signature` (v1: sha256 of secret and body) with
 * `X-Crm-Signature-Version: v1`, and `X-Crm-Signature-v3` (HMAC) with `X-Crm-Request-Timestamp`.
 * Bounded attempts with a timeout each and exponential backoff with jitter; 2xx with a JSON body
 * ends it, a 4xx other than 408 and 429 ends it as failed, everything else is tried again. Every
 * attempt is recorded; the outcome goes back to the import-coordinator.
 */
export class DispatchWebhookUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'accounts' | 'imports'>,
    private readonly secrets: SecretBox,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly options: DispatchOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async dispatch(request: WebhookRequestMessage): Promise<void> {
    const sealed = await this.repositories.accounts.sealedClientSecret(request.appId);
    if (!sealed) return this.finish(request, { ok: false, reason: `application ${request.appId} has no client secret to sign with` });
    let secret: string;
    try {
      secret = this.secrets.open(sealed, sealedFor.appClientSecret(request.appId));
    } catch (error) {
      // A key rotated without the old key kept (SECRETS_PREVIOUS_KEYS): no attempt could ever sign,
      // so the import fails now, visibly, rather than after every redelivery with no outcome at all.
      const why = error instanceof Error ? error.message : String(error);
      return this.finish(request, { ok: false, reason: `application ${request.appId} has no client secret to sign with that can be opened (${why})` });
    }
    const pinned: { agents: ReturnType<typeof pinnedAgents> | null } = { agents: null };
    try {
      return await this.sendWithRetries(request, secret, pinned);
    } finally {
      pinned.agents?.httpAgent.destroy();
      pinned.agents?.httpsAgent.destroy();
    }
  }

  /**
   * The target is checked (resolved) until it resolves, then every attempt goes to the addresses
   * that were checked, not to what DNS answers later. A refusal ends the webhook; a look-up that
   * failed for now (EAI_AGAIN) counts as an attempt and is tried again.
   */
  private async sendWithRetries(request: WebhookRequestMessage, secret: string, pinned: { agents: ReturnType<typeof pinnedAgents> | null }): Promise<void> {
    let last: Attempt | undefined;
    let attempts = 0;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      attempts = attempt;
      if (attempt > 1) await this.sleep(this.backoff(attempt));
      const started = Date.now();
      let lookupFailed: Attempt | null = null;
      if (!pinned.agents) {
        const target = await checkTarget(request.url, this.options.allowPrivateTargets, this.options.resolve);
        if ('addresses' in target) pinned.agents = pinnedAgents(target.addresses);
        else if (target.final) return this.finish(request, { ok: false, reason: `the webhook target was refused: ${target.refusal}` });
        else lookupFailed = { ok: false, final: false, status: null, error: target.refusal };
      }
      last = lookupFailed ?? (await this.send(request, secret, pinned.agents!));
      await this.record(request, {
        attempt,
        at: started,
        url: request.url,
        status: last.status,
        error: last.ok ? null : last.error,
        durationMs: Date.now() - started,
      });
      if (last.ok) return this.finish(request, { ok: true, status: last.status, body: last.body });
      if (last.final) break;
    }
    const failed = last as Extract<Attempt, { ok: false }>;
    const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    return this.finish(request, {
      ok: false,
      reason: `the receiver at ${request.url} did not answer properly (${failed.error}) ${tries}${failed.final && attempts < this.options.maxAttempts ? ', not tried again since that answer will not change' : ''}`,
    });
  }

  private async send(request: WebhookRequestMessage, secret: string, agents: ReturnType<typeof pinnedAgents>): Promise<Attempt> {
    const timestamp = Date.now();
    // The v3 signature covers the URI the receiver sees, not the one typed.
    const url = new URL(request.url).href;
    try {
      const response = await axios.post<string>(url, request.body, {
        // The whole attempt, not only the time between two bytes: a receiver sending one byte every
        // few seconds held an attempt 108 s against a timeout of 10 s.
        timeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        // Only the status and a small JSON answer are read: a 400 MB answer grew the process to 1.3 GB.
        maxContentLength: MAX_ANSWER_BYTES,
        maxRedirects: 0,
        ...agents,
        // A proxy (HTTP_PROXY in the environment) would resolve the name itself, again.
        proxy: false,
        responseType: 'text',
        transformResponse: [(data: string) => data],
        validateStatus: () => true,
        headers: {
          'content-type': 'application/json',
          'x-crm-signature': signV1(secret, request.body),
          'x-crm-signature-version': 'v1',
          'x-crm-signature-v3': signV3(secret, 'POST', uriAsReceived(url), request.body, timestamp),
          'x-crm-request-timestamp': String(timestamp),
        },
      });
      if (response.status >= 200 && response.status < 300) {
        try {
          return { ok: true, status: response.status, body: JSON.parse(response.data) };
        } catch {
          return { ok: false, final: true, status: response.status, error: `answered ${response.status} without a JSON body` };
        }
      }
      return { ok: false, status: response.status, ...refusedAnswer(response.status, response.headers.location as string | undefined) };
    } catch (error) {
      if (axios.isAxiosError(error) && /maxContentLength/.test(error.message)) {
        // Too long an answer stays too long: not tried again.
        return { ok: false, final: true, status: error.response?.status ?? null, error: `answered more than ${MAX_ANSWER_BYTES} bytes` };
      }
      const message = axios.isAxiosError(error)
        ? error.code === 'ECONNABORTED' || error.code === 'ERR_CANCELED'
          ? `no whole answer within ${this.options.timeoutMs} ms`
          : (error.code ?? error.message)
        : String(error);
      return { ok: false, final: false, status: null, error: message };
    }
  }

  /**
   * Records an attempt for the import's page; a failure to record it is logged, never thrown: the
   * attempt was made, and a redelivery would send the receiver the same webhook again.
   */
  private async record(request: WebhookRequestMessage, attempt: WebhookAttempt): Promise<void> {
    try {
      await this.repositories.imports.recordAttempt(request.requestId, attempt);
    } catch (error) {
      this.logger.warn('webhook attempt not recorded', { requestId: request.requestId, attempt: attempt.attempt, error: String(error) });
    }
  }

  /** Exponential, with jitter (half to full of the step), so retries of many imports spread out. */
  private backoff(attempt: number): number {
    const step = this.options.backoffBaseMs * 2 ** (attempt - 2);
    return Math.round(step / 2 + Math.random() * (step / 2));
  }

  private async finish(request: WebhookRequestMessage, outcome: { ok: true; status: number; body: unknown } | { ok: false; reason: string }): Promise<void> {
    if (!outcome.ok) this.logger.warn('webhook failed', { requestId: request.requestId, url: request.url, reason: outcome.reason });
    const event: ImportEventMessage = outcome.ok
      ? { kind: 'webhook-completed', requestId: request.requestId, ok: true, status: outcome.status, body: outcome.body }
      : { kind: 'webhook-completed', requestId: request.requestId, ok: false, reason: outcome.reason };
    await this.broker.publish(TOPICS.webhookCompleted, event);
  }
}
