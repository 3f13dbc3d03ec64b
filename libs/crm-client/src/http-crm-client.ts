import type { ObjectType } from '@ecomm-sync/contracts';
import { CRM_OBJECT_PATHS } from '@ecomm-sync/contracts';
import { CRM_BATCH_LIMIT, type AssociationPair, type CrmInputFailure, type CrmObject, type CrmPipeline, type CrmPort, type CrmPropertyInfo } from './crm-port';
import { chunks, toCrmObject, type ApiObject } from './http-request-helpers';
import { CrmPartialFailure, failedInputs, type BatchAnswer } from './crm-errors';
import { CrmTransport, type CrmTransportOptions } from './crm-transport';

export interface CrmClientOptions extends CrmTransportOptions {
  /**
   * Sends `objectWriteTraceId` (the input's index) on each input of batch create and upsert, which
   * makes the CRM answer 207 naming the inputs it refused (the hosted CRM and the built-in one both
   * take it). On by default.
   */
  objectWriteTraceIds?: boolean;
}

/** HTTP client of a CRM objects API (the built-in `crm` app, or a hosted CRM with the same API). */
export class HttpCrmClient implements CrmPort {
  private readonly transport: CrmTransport;
  private readonly objectWriteTraceIds: boolean;

  constructor(options: CrmClientOptions) {
    this.transport = new CrmTransport(options);
    this.objectWriteTraceIds = options.objectWriteTraceIds ?? true;
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
      await this.transport.request({
        method: 'POST',
        url: `/crm/v3/objects/${CRM_OBJECT_PATHS[type]}/batch/archive`,
        data: { inputs: chunk.map((id) => ({ id: String(id) })) },
      });
      return [];
    });
  }

  async batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]> {
    return this.batched(ids, async (chunk) => {
      const data = await this.transport.request<{ results: ApiObject[] }>({
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
      const { data } = await this.transport.send<{ results?: ApiObject[] }>({
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
    const data = await this.transport.request<{ results: CrmPropertyInfo[] }>({ method: 'GET', url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}` });
    return data.results;
  }

  async createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void> {
    const { name, label, type: propertyType, hasUniqueValue } = property;
    await this.transport.request({
      method: 'POST',
      url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}`,
      data: { name, label, type: propertyType, ...(hasUniqueValue === undefined ? {} : { hasUniqueValue }) },
    });
  }

  async deleteProperty(type: ObjectType, name: string): Promise<void> {
    await this.transport.request({ method: 'DELETE', url: `/crm/v3/properties/${CRM_OBJECT_PATHS[type]}/${encodeURIComponent(name)}` });
  }

  async listDealPipelines(): Promise<CrmPipeline[]> {
    const data = await this.transport.request<{ results: CrmPipeline[] }>({ method: 'GET', url: '/crm/v3/pipelines/deals' });
    return data.results;
  }

  async createDealPipeline(pipeline: CrmPipeline): Promise<CrmPipeline> {
    return this.transport.request<CrmPipeline>({ method: 'POST', url: '/crm/v3/pipelines/deals', data: pipeline });
  }

  async updateDealPipeline(pipeline: CrmPipeline): Promise<CrmPipeline> {
    const { id, ...changes } = pipeline; // the id is the path's; the body carries only what changes
    return this.transport.request<CrmPipeline>({ method: 'PATCH', url: `/crm/v3/pipelines/deals/${encodeURIComponent(id)}`, data: changes });
  }

  async deleteDealPipeline(id: string): Promise<void> {
    await this.transport.request({ method: 'DELETE', url: `/crm/v3/pipelines/deals/${encodeURIComponent(id)}` });
  }

  async batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void> {
    await this.batched(pairs, async (chunk) => {
      await this.transport.request({
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
      const { status, data } = await this.transport.send<BatchAnswer>({
        method: 'POST',
        url,
        data: { inputs: chunk.map((input, i) => toInput(input, from + i)) },
      });
      results.push(...(data.results ?? []).map(toCrmObject));
      if (status === 207 || (data.errors?.length ?? 0) > 0) failures.push(...failedInputs(data.errors ?? [], chunk.map(idOf), from));
    }
    if (failures.length > 0) {
      throw new CrmPartialFailure(`CRM POST ${url}: ${failures.length} of ${inputs.length} inputs refused (first: ${failures[0].message})`, results, failures);
    }
    return results;
  }
}
