import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4';
import * as objects from '@hubspot/api-client/lib/codegen/crm/objects';
import * as pipelines from '@hubspot/api-client/lib/codegen/crm/pipelines';
import * as properties from '@hubspot/api-client/lib/codegen/crm/properties';
import { CRM_OBJECT_PATHS, type ObjectType } from '@ecomm-sync/contracts';
import {
  type AssociationPair,
  type CrmInputFailure,
  type CrmObject,
  type CrmPipeline,
  type CrmPipelineStage,
  type CrmPort,
  type CrmPropertyGroup,
  type CrmPropertyInfo,
  type NewCrmPipeline,
  type NewCrmPipelineStage,
} from './crm-port';
import type { EcommPipelineIds } from '@ecomm-sync/domain';
import { DealStages } from './deal-stages';
import { toCrmPipeline, toCrmStage } from './pipeline-answers';
import { toCrmProperty, toPropertyCreate } from './property-answers';
import { chunksAtOnceFor, DEFAULT_CHUNKS_AT_ONCE, onTheWire, sendChunks, toCrmObject } from './http-request-helpers';
import { CrmPartialFailure, failedInputs, pairsRefused, sdkRefusal } from './crm-errors';
import { CrmTransport, type CrmTransportOptions } from './crm-transport';
import { sdkConfiguration } from './sdk-transport';

export interface CrmClientOptions extends CrmTransportOptions {
  /**
   * Sends `objectWriteTraceId` (the input's index) on each input of batch create, update and upsert,
   * which makes the CRM answer 207 naming the inputs it refused (the hosted CRM and the built-in one
   * both take it). On by default.
   */
  objectWriteTraceIds?: boolean;
  /**
   * The ids of the portal's ecommerce pipeline and its stages as its install kept them for this
   * connection: deals are written with them, without reading the pipelines (otherwise the pipeline
   * is found by its id or label when a deal first needs it).
   */
  ecommPipeline?: EcommPipelineIds | null;
  /**
   * Chunks of 100 of one batch call (writes, reads, archives) sent side by side (default
   * DEFAULT_CHUNKS_AT_ONCE); the account's budget paces them. One at a time when a record comes
   * twice in a write or archive.
   */
  chunksAtOnce?: number;
}

type BatchAnswer = { results: objects.SimplePublicObject[]; errors?: objects.StandardError[] };

/**
 * The CRM's public v3 API as its vendor's official SDK (`@hubspot/api-client`) defines it: every
 * request is built from the SDK's typed models and every answer read into them (decision 0042),
 * sent through CrmTransport (the account's budget, permits, retries, traces and metrics). Pointed
 * at the built-in `crm` app or at a hosted account alike.
 */
export class HttpCrmClient implements CrmPort {
  private readonly transport: CrmTransport;
  private readonly objectWriteTraceIds: boolean;
  private readonly batch: objects.BatchApi;
  private readonly properties: properties.CoreApi;
  private readonly groups: properties.GroupsApi;
  private readonly associations: associations.BatchApi;
  private readonly pipelines: pipelines.PipelinesApi;
  private readonly stages: pipelines.PipelineStagesApi;
  private readonly dealStages: DealStages;
  private readonly chunksAtOnce: number;

  constructor(options: CrmClientOptions) {
    this.transport = new CrmTransport(options);
    this.objectWriteTraceIds = options.objectWriteTraceIds ?? true;
    this.chunksAtOnce = Math.max(1, options.chunksAtOnce ?? DEFAULT_CHUNKS_AT_ONCE);
    this.dealStages = new DealStages(() => this.listDealPipelines(), options.ecommPipeline ?? null);
    this.batch = new objects.BatchApi(sdkConfiguration(objects, this.transport, options.baseUrl));
    const propertiesConfiguration = sdkConfiguration(properties, this.transport, options.baseUrl);
    this.properties = new properties.CoreApi(propertiesConfiguration);
    this.groups = new properties.GroupsApi(propertiesConfiguration);
    this.associations = new associations.BatchApi(sdkConfiguration(associations, this.transport, options.baseUrl));
    const pipelinesConfiguration = sdkConfiguration(pipelines, this.transport, options.baseUrl);
    this.pipelines = new pipelines.PipelinesApi(pipelinesConfiguration);
    this.stages = new pipelines.PipelineStagesApi(pipelinesConfiguration);
  }

  async batchCreate(type: ObjectType, inputs: { properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      type,
      inputs,
      async (chunk, from) =>
        this.batch.createWithHttpInfo(CRM_OBJECT_PATHS[type], {
          inputs: chunk.map((input, i) => ({ properties: onTheWire(input.properties), ...this.traceId(from + i) })),
        }),
      () => null,
    );
  }

  async batchUpdate(type: ObjectType, inputs: { id: number; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      type,
      inputs,
      async (chunk, from) =>
        this.batch.updateWithHttpInfo(CRM_OBJECT_PATHS[type], {
          inputs: chunk.map((input, i) => ({ id: String(input.id), properties: onTheWire(input.properties), ...this.traceId(from + i) })),
        }),
      (input) => String(input.id),
    );
  }

  async batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Record<string, string | null> }[]): Promise<CrmObject[]> {
    return this.batchWrite(
      type,
      inputs,
      async (chunk, from) =>
        this.batch.upsertWithHttpInfo(CRM_OBJECT_PATHS[type], {
          inputs: chunk.map((input, i) => ({ id: input.id, idProperty, properties: onTheWire(input.properties), ...this.traceId(from + i) })),
        }),
      (input) => input.id,
    );
  }

  async batchArchive(type: ObjectType, ids: number[]): Promise<void> {
    await sendChunks(
      ids,
      chunksAtOnceFor(this.chunksAtOnce, ids),
      (chunk) => this.batch.archive(CRM_OBJECT_PATHS[type], { inputs: chunk.map((id) => ({ id: String(id) })) }),
      (id) => id,
    );
  }

  async batchRead(type: ObjectType, ids: number[], names: string[]): Promise<CrmObject[]> {
    const answers = await sendChunks(ids, this.chunksAtOnce, (chunk) =>
      this.batch.read(CRM_OBJECT_PATHS[type], { inputs: chunk.map((id) => ({ id: String(id) })), properties: names, propertiesWithHistory: [] }),
    );
    const results = answers.flatMap((answer) => answer.results.map(toCrmObject));
    return type === 'DEAL' ? this.dealStages.toSpec(results) : results;
  }

  async listProperties(type: ObjectType): Promise<CrmPropertyInfo[]> {
    return (await this.properties.getAll(CRM_OBJECT_PATHS[type])).results.map(toCrmProperty);
  }

  async createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void> {
    await this.properties.create(CRM_OBJECT_PATHS[type], toPropertyCreate(property));
  }

  async deleteProperty(type: ObjectType, name: string): Promise<void> {
    await this.properties.archive(CRM_OBJECT_PATHS[type], name);
  }

  async listPropertyGroups(type: ObjectType): Promise<CrmPropertyGroup[]> {
    return (await this.groups.getAll(CRM_OBJECT_PATHS[type])).results.map(({ name, label }) => ({ name, label }));
  }

  async createPropertyGroup(type: ObjectType, group: CrmPropertyGroup): Promise<void> {
    await this.groups.create(CRM_OBJECT_PATHS[type], { name: group.name, label: group.label });
  }

  async listDealPipelines(): Promise<CrmPipeline[]> {
    return (await this.pipelines.getAll('deals')).results.map(toCrmPipeline);
  }

  async createDealPipeline(pipeline: NewCrmPipeline): Promise<CrmPipeline> {
    this.dealStages.forget();
    return toCrmPipeline(await this.pipelines.create('deals', pipeline));
  }

  async updateDealPipeline(id: string, changes: { label?: string; displayOrder?: number }): Promise<void> {
    await this.pipelines.update('deals', id, changes);
  }

  async deleteDealPipeline(id: string): Promise<void> {
    this.dealStages.forget();
    await this.pipelines.archive('deals', id);
  }

  async createDealStage(pipelineId: string, stage: NewCrmPipelineStage): Promise<CrmPipelineStage> {
    this.dealStages.forget();
    return toCrmStage(await this.stages.create('deals', pipelineId, stage));
  }

  async updateDealStage(pipelineId: string, stageId: string, changes: Partial<NewCrmPipelineStage>): Promise<void> {
    this.dealStages.forget();
    await this.stages.update('deals', pipelineId, stageId, changes);
  }

  async archiveDealStage(pipelineId: string, stageId: string): Promise<void> {
    this.dealStages.forget();
    await this.stages.archive('deals', pipelineId, stageId);
  }

  /**
   * Refused pairs, whether the CRM answers 207 or 200 with `errors`, are thrown as one
   * CrmRequestError (not retriable): the applier narrows it down to the changes it came from.
   */
  async batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void> {
    const what = `CRM association batch ${CRM_OBJECT_PATHS[fromType]} → ${CRM_OBJECT_PATHS[toType]}`;
    // Side by side too: an association is made once however often it is sent, so order does not
    // matter; a target shared by chunks that the CRM answers 423 for is waited out by the transport.
    await sendChunks(pairs, this.chunksAtOnce, async (chunk) => {
      const answer = await this.associations
        .createDefaultWithHttpInfo(CRM_OBJECT_PATHS[fromType], CRM_OBJECT_PATHS[toType], {
          inputs: chunk.map((pair) => ({ _from: { id: String(pair.fromId) }, to: { id: String(pair.toId) } })),
        })
        .catch((error: unknown) => {
          const refusal = sdkRefusal(error, what, chunk.length);
          if (refusal === null) return null;
          throw refusal;
        });
      const errors = answer?.data.errors ?? [];
      if (answer && errors.length > 0) throw pairsRefused(what, answer.httpStatusCode, errors, chunk.length);
    });
  }

  private traceId(index: number): { objectWriteTraceId?: string } {
    return this.objectWriteTraceIds ? { objectWriteTraceId: String(index) } : {};
  }

  /** Batch writes in chunks; a 207's refused inputs are collected over every chunk and thrown together (CrmPartialFailure). */
  private async batchWrite<I extends { properties: Record<string, string | null> }>(
    type: ObjectType,
    given: readonly I[],
    send: (chunk: I[], from: number) => Promise<{ httpStatusCode: number; data: BatchAnswer }>,
    idOf: (input: I) => string | null,
  ): Promise<CrmObject[]> {
    const deals = type === 'DEAL';
    const inputs = deals ? await this.dealStages.toCrm([...given]) : given;
    let results: CrmObject[] = [];
    const failures: CrmInputFailure[] = [];
    const atOnce = chunksAtOnceFor(this.chunksAtOnce, inputs.map(idOf));
    const answers = await sendChunks(inputs, atOnce, async (chunk, from) => ({ chunk, from, ...(await send(chunk, from)) }), idOf);
    for (const { chunk, from, httpStatusCode, data } of answers) {
      results.push(...(data.results ?? []).map(toCrmObject));
      const errors = data.errors ?? [];
      if (httpStatusCode === 207 || errors.length > 0) failures.push(...failedInputs(errors, chunk.map(idOf), from));
    }
    // The CRM echoes its own stage ids: the port speaks SPEC's stage names.
    if (deals) results = await this.dealStages.toSpec(results);
    if (failures.length > 0)
      throw new CrmPartialFailure(`CRM batch write: ${failures.length} of ${inputs.length} inputs refused (first: ${failures[0].message})`, results, failures);
    return results;
  }
}
