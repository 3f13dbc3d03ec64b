import axios, { type AxiosInstance, type AxiosRequestConfig, isAxiosError } from 'axios';
import { CrmBudgetPaused, crmRequestOutcome, readRateLimitAnswer, type CrmBudget, type CrmPermit, type CrmRequestKind } from '@ecomm-sync/domain';
import { countCrmRequest, startSpan, type ActiveSpan } from '@ecomm-sync/runtime';
import { crmErrorReason, CrmUnavailableError, toCrmError, type CrmUnavailableReason } from './crm-errors';
import type { CrmExchangeSink } from './crm-exchange';
import { CrmExchangeRecorder, type CrmAttempt } from './crm-exchange-recorder';
import { parseAnswer, requestJson } from './crm-json';
import { agents, isSearch, lowerCased, wait, withTraceparent } from './http-request-helpers';

/** The longest CRM answer read: a batch of 100 objects with their properties is far below it. */
export const MAX_CRM_ANSWER_BYTES = 32 * 1024 * 1024;

/** How long a request waits after a 423 (record locked) at least, as the vendor's API asks. */
const LOCKED_WAIT_MS = 2_000;

/** Retry-After in milliseconds, when the answer gives it in seconds. */
function retryAfterMs(headers: unknown): number | undefined {
  const seconds = Number(lowerCased(headers)['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** An answer as the request log keeps it. */
const answerOf = (response: { status: number; headers: unknown; data: unknown }) => ({
  status: response.status,
  headers: lowerCased(response.headers),
  body: response.data,
});

/** How a CRM client reaches its CRM. */
export interface CrmTransportOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  /** Longest wait between tries after no answer or a 5xx (default 10 s). */
  maxBackoffMs?: number;
  /** The CRM account's request budget, shared by every replica: each request takes a permit first and reports its answer. */
  budget?: CrmBudget;
  /**
   * Longest time one request may wait, all tries together: for the budget, after 429s and while the
   * CRM does not answer or answers 5xx (default 30 s). Beyond it: CrmUnavailableError.
   */
  maxWaitMs?: number;
  /** The CRM account, as the `account` label of the CRM request metrics (default: the base URL). */
  account?: string;
  /** The portal whose connection this is, as the request log names it (default: the one `account` names, if any). */
  portalId?: number;
  /** The CRM request log (decision 0051): every attempt is handed to it, redacted; absent, nothing is recorded. */
  requestLog?: CrmExchangeSink;
}

/**
 * The HTTP side of a CRM client: one request at a time through the account's budget, its answer
 * counted, traced and reported to the budget, and tried again while the CRM limits it, is away or
 * fails, for as long as the request may wait (HttpCrmClient maps the CRM's API onto it).
 */
export class CrmTransport {
  private readonly http: AxiosInstance;
  private readonly maxBackoffMs: number;
  private readonly maxWaitMs: number;
  private readonly budget: CrmBudget | undefined;
  private readonly account: string;
  private readonly recorder: CrmExchangeRecorder | undefined;
  private readonly headers: Record<string, string>;

  constructor(options: CrmTransportOptions) {
    this.headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
    this.http = axios.create({
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 15_000,
      headers: this.headers,
      // A redirect would carry the token wherever it points: an answer 3xx is the CRM's refusal.
      maxRedirects: 0,
      // The largest answer of the API the service uses is a batch of 100 objects.
      maxContentLength: MAX_CRM_ANSWER_BYTES,
      // Each body encoded and parsed once (crm-json.ts): the SDK's JSON text as it is, answers parsed with their text kept.
      transformRequest: [requestJson],
      transformResponse: [parseAnswer],
      ...agents,
    });
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.budget = options.budget;
    this.account = options.account ?? options.baseUrl;
    this.recorder =
      options.requestLog &&
      new CrmExchangeRecorder({
        sink: options.requestLog,
        baseUrl: options.baseUrl,
        account: this.account,
        portalId: options.portalId,
        secrets: [options.token],
      });
  }

  async request<T = unknown>(config: AxiosRequestConfig): Promise<T> {
    return (await this.send<T>(config)).data;
  }

  /**
   * Sends one request: takes a permit from the budget first (searches as 'search') and reports the
   * answer to it. Retries after a 429 (as the budget, or Retry-After, says), 423 (2 s at least), no
   * answer, 5xx and 477 (Retry-After, else capped exponential backoff with jitter) with no fixed
   * count, as long as the request's waits stay within `maxWaitMs`; beyond it, CrmUnavailableError.
   * Any other 4xx is a CrmRequestError at once: it would be refused again.
   */
  async send<T>(config: AxiosRequestConfig): Promise<{ status: number; data: T; headers: Record<string, string> }> {
    const kind: CrmRequestKind = isSearch(config.url) ? 'search' : 'request';
    const deadline = Date.now() + this.maxWaitMs;
    let lastAnswer = 'none yet';
    let lastStatus = 429;
    let unanswered = 0;
    let attempt = 0;
    const unavailable = (reason: CrmUnavailableReason, until: number | null, status: number) =>
      new CrmUnavailableError(
        `CRM ${config.method} ${config.url} unavailable (${reason}${until === null ? '' : ` until ${new Date(until).toISOString()}`}); last answer: ${lastAnswer}`,
        status,
        reason,
        until,
        lastAnswer,
      );
    for (;;) {
      if (this.budget) {
        let permit: CrmPermit;
        try {
          permit = await this.budget.take(kind, { maxWaitMs: Math.max(0, deadline - Date.now()) });
        } catch (error) {
          if (error instanceof CrmBudgetPaused) throw unavailable(error.reason, error.until, lastStatus);
          throw error;
        }
        // Paused between the permit and here past the permit's slot: the request could reach the CRM
        // after the window stopped counting it. The permit stays counted; take another.
        if (!permit.usable()) {
          if (Date.now() >= deadline) throw unavailable('rate-limited', null, lastStatus);
          continue;
        }
      }
      const span = startSpan(`CRM ${config.method}`, {
        kind: 'client',
        attributes: { 'http.request.method': String(config.method), 'url.path': String(config.url) },
      });
      const sent = withTraceparent(config, span);
      const startedAt = Date.now();
      const started = performance.now();
      attempt++;
      try {
        const response = await this.http.request<T>(sent);
        this.recorder?.record({ ...this.attemptOf(sent, attempt, startedAt, started), answer: answerOf(response) });
        this.counted(response.status, span);
        await this.observe(response.status, response.headers, response.data);
        const headers = lowerCased(response.headers);
        return {
          status: response.status,
          data: response.data,
          headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>,
        };
      } catch (error) {
        const response = isAxiosError(error) ? error.response : undefined;
        this.recorder?.record({
          ...this.attemptOf(sent, attempt, startedAt, started),
          ...(response ? { answer: answerOf(response) } : { error: isAxiosError(error) ? crmErrorReason(error) : String(error) }),
        });
        this.counted(response?.status, span, error);
        if (response) await this.observe(response.status, response.headers, response.data);
        const failure = toCrmError(error, config);
        if (!failure.retriable) throw failure;
        const body = response?.data as { message?: unknown } | undefined;
        lastStatus = failure.status;
        lastAnswer = `${failure.status || 'no answer'}: ${typeof body?.message === 'string' ? body.message : isAxiosError(error) ? crmErrorReason(error) : String(error)}`;
        let reason: CrmUnavailableReason = 'unreachable';
        let waitMs: number;
        if (failure.status === 429) {
          const answer = readRateLimitAnswer(429, lowerCased(response?.headers), response?.data, Date.now());
          reason = answer.policy === 'daily' ? 'daily-cap' : 'rate-limited';
          // With a budget, the next take waits as long as the corrected budget says; without one,
          // Retry-After says it, and a daily cap without Retry-After is a wait we cannot know.
          waitMs = this.budget ? 0 : (answer.retryAfterMs ?? (reason === 'daily-cap' ? Infinity : this.backoff(unanswered++)));
        } else if (failure.status === 423) {
          // Locked by a concurrent write to the same record: the vendor asks for 2 s at least.
          waitMs = Math.max(LOCKED_WAIT_MS, this.backoff(unanswered++));
        } else {
          // No answer, 5xx, or 477 (the account is migrating): as long as Retry-After says, else backing off.
          waitMs = retryAfterMs(response?.headers) ?? this.backoff(unanswered++);
        }
        if (Date.now() + waitMs > deadline)
          throw unavailable(reason, reason === 'unreachable' || waitMs === Infinity ? null : Date.now() + waitMs, failure.status);
        if (waitMs > 0) await wait(waitMs);
      }
    }
  }

  /** One try as the request log sees it (its answer added by the caller). */
  private attemptOf(config: AxiosRequestConfig, attempt: number, startedAt: number, started: number): CrmAttempt {
    return {
      startedAt,
      durationMs: performance.now() - started,
      attempt,
      method: String(config.method ?? 'GET'),
      path: String(config.url ?? ''),
      // The log redacts the authorization header like every other secret.
      requestHeaders: { ...this.headers, ...lowerCased(config.headers) },
      requestBody: config.data,
    };
  }

  /** Counts the request by outcome and ends its span. */
  private counted(status: number | undefined, span: ActiveSpan | undefined, error?: unknown): void {
    countCrmRequest(this.account, crmRequestOutcome(status));
    if (!span) return;
    if (status) span.setAttribute('http.response.status_code', status);
    span.end(error);
  }

  /** Reports an answer to the budget. A correction that cannot be stored is dropped: the answer stands, and the next one corrects again. */
  private async observe(status: number, headers: unknown, body: unknown): Promise<void> {
    if (!this.budget) return;
    try {
      await this.budget.observe(status, lowerCased(headers), body);
    } catch {
      // The budget's store is away: the next answer brings the same headers.
    }
  }

  private backoff(attempt: number): number {
    return Math.min(this.maxBackoffMs, 100 * 2 ** attempt + Math.random() * 100);
  }
}
