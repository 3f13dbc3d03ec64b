import axios, { type AxiosInstance, type AxiosRequestConfig, isAxiosError } from 'axios';
import type { ObjectType } from '@ecomm-sync/contracts';
import { CRM_OBJECT_PATHS } from '@ecomm-sync/contracts';
import { CrmBudgetPaused, crmRequestOutcome, readRateLimitAnswer, type CrmBudget, type CrmPermit, type CrmRequestKind } from '@ecomm-sync/domain';
import { countCrmRequest, startSpan, type ActiveSpan } from '@ecomm-sync/observability';
import { CRM_BATCH_LIMIT, type AssociationPair, type CrmInputFailure, type CrmObject, type CrmPipeline, type CrmPort, type CrmPropertyInfo } from './crm-port';
import { agents, chunks, isSearch, lowerCased, toCrmObject, wait, withTraceparent, type ApiObject } from './http-request-helpers';
import { CrmPartialFailure, CrmUnavailableError, failedInputs, toCrmError, type BatchAnswer, type CrmUnavailableReason } from './crm-errors';

export interface CrmClientOptions {
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
  /**
   * Sends `objectWriteTraceId` (the input's index) on each input of batch create and upsert, which
   * makes the CRM answer 207 naming the inputs it refused (the hosted CRM and the built-in one both
   * take it). On by default.
   */
  objectWriteTraceIds?: boolean;
  /** The CRM account, as the `account` label of the CRM request metrics (default: the base URL). */
  account?: string;
}

/** HTTP client of a CRM objects API (the built-in `crm` app, or a hosted CRM with the same API). */
export class HttpCrmClient implements CrmPort {
  private readonly http: AxiosInstance;
  private readonly maxBackoffMs: number;
  private readonly maxWaitMs: number;
  private readonly budget: CrmBudget | undefined;
  private readonly objectWriteTraceIds: boolean;
  private readonly account: string;

  constructor(options: CrmClientOptions) {
    this.http = axios.create({
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 15_000,
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      ...agents,
    });
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.budget = options.budget;
    this.objectWriteTraceIds = options.objectWriteTraceIds ?? true;
    this.account = options.account ?? options.baseUrl;
  }

  async batchCreate(type: ObjectType, inputs: { properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/create`,
      inputs,
      (input, index) => ({ properties: input.properties, ...this.traceId(index) }),
      () => null,
    );
  }

  async batchUpdate(type: ObjectType, inputs: { id: number; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/update`,
      inputs,
      (input) => ({ id: String(input.id), properties: input.properties }),
      (input) => String(input.id),
    );
  }

  async batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/upsert`,
      inputs,
      (input, index) => ({ id: input.id, idProperty, properties: input.properties, ...this.traceId(index) }),
      (input) => input.id,
    );
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    await this.batched(ids, async (chunk) => {
      await this.request({
        method: 'POST',
        url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/archive`,
        data: { inputs: chunk.map((id) => ({ id: String(id) })) },
      });
      return [];
    });
  }

  async batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]> {
    return this.batched(ids, async (chunk) => {
      const data = await this.request<{ results: ApiObject[] }>({
        method: 'POST',
        url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/read`,
        data: { inputs: chunk.map((id) => ({ id: String(id) })), properties },
      });
      return data.results.map(toCrmObject);
    });
  }

  /**
   * Contacts by e-mail: one batch read by `idProperty: email` per 100 addresses (the hosted CRM
   * matches e-mails without case and answers 207 naming those it has no contact for). A plain
   * request, not a search: searches have a per-second limit of their own (decision 0038).
   */
  async findContactsByEmail(emails: string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const unique = [...new Set(emails.map((email) => email.toLowerCase()))];
    for (const chunk of chunks(unique)) {
      const { data } = await this.send<{ results?: ApiObject[] }>({
        method: 'POST',
        url: '/crm/v3/objects/contacts/batch/read',
        data: { idProperty: 'email', inputs: chunk.map((email) => ({ id: email })), properties: ['email'] },
      });
      for (const result of data.results ?? []) {
        const email = result.properties.email?.toLowerCase();
        if (email && !found.has(email)) found.set(email, Number(result.id));
      }
    }
    return found;
  }

  async listProperties(type: ObjectType): Promise<CrmPropertyInfo[]> {
    const data = await this.request<{ results: CrmPropertyInfo[] }>({ method: 'GET', url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}` });
    return data.results;
  }

  async createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void> {
    const { name, label, type: propertyType, hasUniqueValue } = property;
    await this.request({
      method: 'POST',
      url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}`,
      data: { name, label, type: propertyType, ...(hasUniqueValue === undefined ? {} : { hasUniqueValue }) },
    });
  }

  async deleteProperty(type: ObjectType, name: string): Promise<void> {
    await this.request({ method: 'DELETE', url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}/${encodeURIComponent(name)}` });
  }

  async listDealPipelines(): Promise<CrmPipeline[]> {
    const data = await this.request<{ results: CrmPipeline[] }>({ method: 'GET', url: '/crm/v3/pipelines/deals' });
    return data.results;
  }

  async createDealPipeline(pipeline: CrmPipeline): Promise<CrmPipeline> {
    return this.request<CrmPipeline>({ method: 'POST', url: '/crm/v3/pipelines/deals', data: pipeline });
  }

  async updateDealPipeline(pipeline: CrmPipeline): Promise<CrmPipeline> {
    const { id, ...changes } = pipeline; // the id is the path's; the body carries only what changes
    return this.request<CrmPipeline>({ method: 'PATCH', url: `/crm/v3/pipelines/deals/${encodeURIComponent(id)}`, data: changes });
  }

  async deleteDealPipeline(id: string): Promise<void> {
    await this.request({ method: 'DELETE', url: `/crm/v3/pipelines/deals/${encodeURIComponent(id)}` });
  }

  async batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void> {
    await this.batched(pairs, async (chunk) => {
      await this.request({
        method: 'POST',
        url: `/crm/v4/associations/${CRM_OBJECT_PATHS[fromType]}/${CRM_OBJECT_PATHS[toType]}/batch/associate/default`,
        data: { inputs: chunk.map((pair) => ({ from: { id: String(pair.fromId) }, to: { id: String(pair.toId) } })) },
      });
      return [];
    });
  }

  private async batched<T, R>(items: readonly T[], send: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
    const results: R[] = [];
    for (const chunk of chunks(items)) results.push(...(await send(chunk)));
    return results;
  }

  private traceId(index: number): { objectWriteTraceId?: string } {
    return this.objectWriteTraceIds ? { objectWriteTraceId: String(index) } : {};
  }

  /** Batch writes in chunks; a 207's refused inputs are collected over every chunk and thrown together (CrmPartialFailure). */
  private async batchWrite<I>(
    url: string,
    inputs: readonly I[],
    toInput: (input: I, index: number) => object,
    idOf: (input: I) => string | null,
  ): Promise<CrmObject[]> {
    const results: CrmObject[] = [];
    const failures: CrmInputFailure[] = [];
    for (let from = 0; from < inputs.length; from += CRM_BATCH_LIMIT) {
      const chunk = inputs.slice(from, from + CRM_BATCH_LIMIT);
      const { status, data } = await this.send<BatchAnswer>({ method: 'POST', url, data: { inputs: chunk.map((input, i) => toInput(input, from + i)) } });
      results.push(...(data.results ?? []).map(toCrmObject));
      if (status === 207 || (data.errors?.length ?? 0) > 0) failures.push(...failedInputs(data.errors ?? [], chunk.map(idOf), from));
    }
    if (failures.length > 0) {
      throw new CrmPartialFailure(`CRM POST ${url}: ${failures.length} of ${inputs.length} inputs refused (first: ${failures[0].message})`, results, failures);
    }
    return results;
  }

  private async request<T = unknown>(config: AxiosRequestConfig): Promise<T> {
    return (await this.send<T>(config)).data;
  }

  /**
   * Sends one request: takes a permit from the budget first (searches as 'search') and reports the
   * answer to it. Retries after a 429 (as the budget, or Retry-After, says), no answer and 5xx (capped
   * exponential backoff with jitter) with no fixed count, as long as the request's waits stay within
   * `maxWaitMs`; beyond it, CrmUnavailableError. Any other 4xx is a CrmRequestError at once.
   */
  private async send<T>(config: AxiosRequestConfig): Promise<{ status: number; data: T }> {
    const kind: CrmRequestKind = isSearch(config.url) ? 'search' : 'request';
    const deadline = Date.now() + this.maxWaitMs;
    let lastAnswer = 'none yet';
    let lastStatus = 429;
    let unanswered = 0;
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
      try {
        const response = await this.http.request<T>(withTraceparent(config, span));
        this.counted(response.status, span);
        await this.observe(response.status, response.headers, response.data);
        return { status: response.status, data: response.data };
      } catch (error) {
        const response = isAxiosError(error) ? error.response : undefined;
        this.counted(response?.status, span, error);
        if (response) await this.observe(response.status, response.headers, response.data);
        const failure = toCrmError(error, config);
        if (!failure.retriable) throw failure;
        const body = response?.data as { message?: unknown } | undefined;
        lastStatus = failure.status;
        lastAnswer = `${failure.status || 'no answer'}: ${typeof body?.message === 'string' ? body.message : (error as Error).message}`;
        let reason: CrmUnavailableReason = 'unreachable';
        let waitMs: number;
        if (failure.status === 429) {
          const answer = readRateLimitAnswer(429, lowerCased(response?.headers), response?.data, Date.now());
          reason = answer.policy === 'daily' ? 'daily-cap' : 'rate-limited';
          // With a budget, the next take waits as long as the corrected budget says; without one,
          // Retry-After says it, and a daily cap without Retry-After is a wait we cannot know.
          waitMs = this.budget ? 0 : (answer.retryAfterMs ?? (reason === 'daily-cap' ? Infinity : this.backoff(unanswered++)));
        } else {
          waitMs = this.backoff(unanswered++);
        }
        if (Date.now() + waitMs > deadline)
          throw unavailable(reason, reason === 'unreachable' || waitMs === Infinity ? null : Date.now() + waitMs, failure.status);
        if (waitMs > 0) await wait(waitMs);
      }
    }
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
