import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosRequestConfig, isAxiosError } from 'axios';
import type { ObjectType } from '@ecomm-sync/contracts';
import { CRM_OBJECT_PATHS } from '@ecomm-sync/contracts';
import { CRM_BATCH_LIMIT, type AssociationPair, type CrmObject, type CrmPipeline, type CrmPort, type CrmPropertyInfo } from './crm-port';

export interface CrmClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Longest wait between tries, whatever Retry-After asks. */
  maxBackoffMs?: number;
}

/** A CRM answer that is not a success after retries: `status` is the HTTP status (0: no answer). */
export class CrmRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly category?: string,
  ) {
    super(message);
    this.name = 'CrmRequestError';
  }

  get retriable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

const agents = { httpAgent: new http.Agent({ keepAlive: true, maxSockets: 32 }), httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 32 }) };

interface ApiObject {
  id: string;
  properties: Record<string, string | null>;
}

const toCrmObject = (object: ApiObject): CrmObject => ({ id: Number(object.id), properties: object.properties });

function chunks<T>(items: readonly T[], size = CRM_BATCH_LIMIT): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** HTTP client of a CRM objects API (the built-in `crm` app, or a hosted CRM with the same API). */
export class HttpCrmClient implements CrmPort {
  private readonly http: AxiosInstance;
  private readonly maxRetries: number;
  private readonly maxBackoffMs: number;

  constructor(options: CrmClientOptions) {
    this.http = axios.create({
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 15_000,
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      ...agents,
    });
    this.maxRetries = options.maxRetries ?? 4;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
  }

  async batchCreate(type: ObjectType, inputs: { properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batched(inputs, async (chunk) => {
      const data = await this.request<{ results: ApiObject[] }>({ method: 'POST', url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/create`, data: { inputs: chunk } });
      return data.results.map(toCrmObject);
    });
  }

  async batchUpdate(type: ObjectType, inputs: { id: number; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batched(inputs, async (chunk) => {
      const data = await this.request<{ results: ApiObject[] }>({
        method: 'POST',
        url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/update`,
        data: { inputs: chunk.map((input) => ({ id: String(input.id), properties: input.properties })) },
      });
      return data.results.map(toCrmObject);
    });
  }

  async batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batched(inputs, async (chunk) => {
      const data = await this.request<{ results: ApiObject[] }>({
        method: 'POST',
        url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/upsert`,
        data: { inputs: chunk.map((input) => ({ id: input.id, idProperty, properties: input.properties })) },
      });
      return data.results.map(toCrmObject);
    });
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    await this.batched(ids, async (chunk) => {
      await this.request({ method: 'POST', url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/archive`, data: { inputs: chunk.map((id) => ({ id: String(id) })) } });
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

  async findContactsByEmail(emails: string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const unique = [...new Set(emails.map((email) => email.toLowerCase()))];
    for (const chunk of chunks(unique)) {
      const data = await this.request<{ results: ApiObject[] }>({
        method: 'POST',
        url: '/crm/v3/objects/contacts/search',
        data: { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'IN', values: chunk }] }], properties: ['email'], limit: CRM_BATCH_LIMIT },
      });
      for (const result of data.results) {
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
    await this.request({ method: 'POST', url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}`, data: { name, label, type: propertyType, ...(hasUniqueValue === undefined ? {} : { hasUniqueValue }) } });
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

  /** Retries on no answer, 429 (honouring Retry-After) and 5xx with capped exponential backoff and jitter. */
  private async request<T = unknown>(config: AxiosRequestConfig): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.http.request<T>(config);
        return response.data;
      } catch (error) {
        const failure = toCrmError(error, config);
        if (!failure.retriable || attempt >= this.maxRetries) throw failure;
        await new Promise((resolve) => setTimeout(resolve, this.backoff(error, attempt)));
      }
    }
  }

  private backoff(error: unknown, attempt: number): number {
    const retryAfter = isAxiosError(error) ? Number(error.response?.headers?.['retry-after']) : NaN;
    const base = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : 100 * 2 ** attempt;
    return Math.min(this.maxBackoffMs, base + Math.random() * 100);
  }
}

export function toCrmError(error: unknown, config: AxiosRequestConfig): CrmRequestError {
  if (!isAxiosError(error)) return new CrmRequestError(String(error), 0);
  const status = error.response?.status ?? 0;
  const body = error.response?.data as { message?: string; category?: string } | undefined;
  const reason = body?.message ?? error.message;
  return new CrmRequestError(`CRM ${config.method} ${config.url} failed (${status || 'no answer'}): ${reason}`, status, body?.category);
}
