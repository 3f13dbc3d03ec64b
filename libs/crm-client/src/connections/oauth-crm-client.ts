import type { ObjectType } from '@ecomm-sync/contracts';
import {
  CRM_BATCH_LIMIT,
  CrmRequestError,
  type AssociationPair,
  type CrmObject,
  type CrmPipeline,
  type CrmPipelineStage,
  type NewCrmPipeline,
  type NewCrmPipelineStage,
  type CrmPort,
  type CrmPropertyGroup,
  type CrmPropertyInfo,
} from '../index';
import type { OAuthAccessTokens } from './oauth-access-tokens';

type Properties = Record<string, string | null>;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += CRM_BATCH_LIMIT) result.push(items.slice(i, i + CRM_BATCH_LIMIT));
  return result;
}

/**
 * A CRM port over OAuth: each request carries a current access token; a request the CRM answers
 * 401 gets a fresh token and is sent once more. Batches are split here (not in the HTTP client),
 * so that the one retry repeats one request of at most 100, never chunks that already succeeded.
 */
export class OAuthCrmClient implements CrmPort {
  private client: { token: string; port: CrmPort } | null = null;

  constructor(
    private readonly tokens: OAuthAccessTokens,
    private readonly createClient: (token: string) => CrmPort,
  ) {}

  batchCreate(type: ObjectType, inputs: { properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(inputs, (chunk) => this.call((crm) => crm.batchCreate(type, chunk)));
  }

  batchUpdate(type: ObjectType, inputs: { id: number; properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(inputs, (chunk) => this.call((crm) => crm.batchUpdate(type, chunk)));
  }

  batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(inputs, (chunk) => this.call((crm) => crm.batchUpsert(type, idProperty, chunk)));
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    for (const chunk of chunks(ids)) await this.call((crm) => crm.batchArchive(type, chunk));
  }

  batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]> {
    return this.batched(ids, (chunk) => this.call((crm) => crm.batchRead(type, chunk, properties)));
  }

  listProperties(type: ObjectType): Promise<CrmPropertyInfo[]> {
    return this.call((crm) => crm.listProperties(type));
  }

  createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void> {
    return this.call((crm) => crm.createProperty(type, property));
  }
  listPropertyGroups(type: ObjectType): Promise<CrmPropertyGroup[]> {
    return this.call((crm) => crm.listPropertyGroups(type));
  }

  createPropertyGroup(type: ObjectType, group: CrmPropertyGroup): Promise<void> {
    return this.call((crm) => crm.createPropertyGroup(type, group));
  }

  deleteProperty(type: ObjectType, name: string): Promise<void> {
    return this.call((crm) => crm.deleteProperty(type, name));
  }

  listDealPipelines(): Promise<CrmPipeline[]> {
    return this.call((crm) => crm.listDealPipelines());
  }

  createDealPipeline(pipeline: NewCrmPipeline): Promise<CrmPipeline> {
    return this.call((crm) => crm.createDealPipeline(pipeline));
  }

  updateDealPipeline(id: string, changes: { label?: string; displayOrder?: number }): Promise<void> {
    return this.call((crm) => crm.updateDealPipeline(id, changes));
  }

  createDealStage(pipelineId: string, stage: NewCrmPipelineStage): Promise<CrmPipelineStage> {
    return this.call((crm) => crm.createDealStage(pipelineId, stage));
  }

  updateDealStage(pipelineId: string, stageId: string, changes: Partial<NewCrmPipelineStage>): Promise<void> {
    return this.call((crm) => crm.updateDealStage(pipelineId, stageId, changes));
  }

  archiveDealStage(pipelineId: string, stageId: string): Promise<void> {
    return this.call((crm) => crm.archiveDealStage(pipelineId, stageId));
  }

  deleteDealPipeline(id: string): Promise<void> {
    return this.call((crm) => crm.deleteDealPipeline(id));
  }

  async batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void> {
    for (const chunk of chunks(pairs)) await this.call((crm) => crm.batchAssociate(fromType, toType, chunk));
  }

  private async batched<T, R>(items: readonly T[], send: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
    const results: R[] = [];
    for (const chunk of chunks(items)) results.push(...(await send(chunk)));
    return results;
  }

  private async call<T>(send: (crm: CrmPort) => Promise<T>): Promise<T> {
    const token = await this.tokens.get();
    try {
      return await send(this.port(token));
    } catch (error) {
      if (!(error instanceof CrmRequestError) || error.status !== 401) throw error;
      return send(this.port(await this.tokens.renew(token)));
    }
  }

  private port(token: string): CrmPort {
    if (this.client?.token !== token) this.client = { token, port: this.createClient(token) };
    return this.client.port;
  }
}
