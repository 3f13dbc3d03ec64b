import type { ObjectType } from '@ecomm-sync/contracts';
import {
  CrmPartialFailure,
  CrmRequestError,
  type CrmInputFailure,
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
import { chunksAtOnceFor, DEFAULT_CHUNKS_AT_ONCE, sendChunks } from '../http-request-helpers';
import type { OAuthAccessTokens } from './oauth-access-tokens';

type Properties = Record<string, string | null>;

/**
 * A CRM port over OAuth: each request carries a current access token; a request the CRM answers
 * 401 gets a fresh token and is sent once more. Batches are split here (not in the HTTP client),
 * so that the one retry repeats one request of at most 100, never chunks that already succeeded;
 * they go side by side as the HTTP client's own (`chunksAtOnce`), and a 207 of any chunk names its
 * refused inputs by their place in the whole call, with the objects every chunk wrote.
 */
export class OAuthCrmClient implements CrmPort {
  private client: { token: string; port: CrmPort } | null = null;

  constructor(
    private readonly tokens: OAuthAccessTokens,
    private readonly createClient: (token: string) => CrmPort,
    private readonly chunksAtOnce = DEFAULT_CHUNKS_AT_ONCE,
  ) {}

  batchCreate(type: ObjectType, inputs: { properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(inputs, null, (chunk) => this.call((crm) => crm.batchCreate(type, chunk)));
  }

  batchUpdate(type: ObjectType, inputs: { id: number; properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(
      inputs,
      (input) => input.id,
      (chunk) => this.call((crm) => crm.batchUpdate(type, chunk)),
    );
  }

  batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Properties }[]): Promise<CrmObject[]> {
    return this.batched(
      inputs,
      (input) => input.id,
      (chunk) => this.call((crm) => crm.batchUpsert(type, idProperty, chunk)),
    );
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    await sendChunks(
      ids,
      chunksAtOnceFor(this.chunksAtOnce, ids),
      (chunk) => this.call((crm) => crm.batchArchive(type, chunk)),
      (id) => id,
    );
  }

  batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]> {
    return this.batched(ids, null, (chunk) => this.call((crm) => crm.batchRead(type, chunk, properties)));
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
    // Side by side, as the HTTP client's: an association is made once however often it is sent.
    await sendChunks(pairs, this.chunksAtOnce, (chunk) => this.call((crm) => crm.batchAssociate(fromType, toType, chunk)));
  }

  /** `keyOf`: the record an input writes (null: none named, as a create); a record named twice sends one chunk at a time. */
  private async batched<T>(
    items: readonly T[],
    keyOf: ((item: T) => string | number) | null,
    send: (chunk: T[]) => Promise<CrmObject[]>,
  ): Promise<CrmObject[]> {
    const atOnce = keyOf ? chunksAtOnceFor(this.chunksAtOnce, items.map(keyOf)) : this.chunksAtOnce;
    const partial: { message: string; failures: CrmInputFailure[] }[] = [];
    const answers = await sendChunks(
      items,
      atOnce,
      async (chunk, from) => {
        try {
          return await send(chunk);
        } catch (error) {
          if (!(error instanceof CrmPartialFailure)) throw error;
          partial.push({
            message: error.message,
            failures: error.failures.map((failure) => ({ ...failure, index: failure.index < 0 ? -1 : failure.index + from })),
          });
          return error.results;
        }
      },
      keyOf ?? undefined,
    );
    const results = answers.flat();
    if (partial.length === 0) return results;
    const failures = partial.flatMap((one) => one.failures).sort((a, b) => a.index - b.index);
    // The chunk's own message where the call was one chunk; otherwise a count over the whole call (a
    // call of 100 or fewer that names a record twice goes as two chunks, and either may be refused).
    throw new CrmPartialFailure(
      answers.length === 1
        ? partial[0].message
        : `CRM batch write: ${failures.length} of ${items.length} inputs refused (first: ${failures[0]?.message ?? partial[0].message})`,
      results,
      failures,
    );
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
