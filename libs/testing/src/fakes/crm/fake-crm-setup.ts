import type { ObjectType } from '@ecomm-sync/contracts';
import {
  CrmRequestError,
  type CrmPipeline,
  type CrmPipelineStage,
  type CrmPropertyGroup,
  type CrmPropertyInfo,
  type NewCrmPipeline,
  type NewCrmPipelineStage,
} from '@ecomm-sync/crm-client';
import { copy } from '../public-of';

type SeededProperty = Pick<CrmPropertyInfo, 'name' | 'label' | 'type'> & Partial<CrmPropertyInfo>;

/** A refusal as the CRMs answer it; a 404 names its category OBJECT_NOT_FOUND, as the built-in and the hosted CRM do. */
export const refused = (status: number, message: string) => new CrmRequestError(`FakeCrm: ${message}`, status, status === 404 ? 'OBJECT_NOT_FOUND' : undefined);

/** The deal pipelines a portal may have unless seeded otherwise: the built-in CRM's default (CRM_DEFAULT_PIPELINE_LIMIT). */
const DEFAULT_PIPELINE_LIMIT = 10;

/**
 * The setup half of FakeCrm: a portal's properties and their groups, and its deal pipelines with
 * their stages, as the CRM's properties and pipelines APIs keep them (the CRM makes the ids).
 */
export class FakeCrmSetup {
  private readonly properties = new Map<ObjectType, Map<string, CrmPropertyInfo>>();
  private readonly pipelines = new Map<string, CrmPipeline>();
  /** Property groups per type; every type starts with its information group, as in the CRM. */
  private readonly groups = new Map<ObjectType, Map<string, CrmPropertyGroup>>();
  private readonly pipelineLimit: number;
  private propertyCreateFailure: { countdown: number; error: Error } | null = null;
  protected nextId = 1;

  /**
   * `properties`: what the portal has already, in any group (a seed's field type and group default
   * to text in the type's information group). `pipelineLimit`: the deal pipelines the portal may
   * have, seeded ones included (default: the built-in CRM's default, CRM_DEFAULT_PIPELINE_LIMIT).
   */
  constructor(seed: { properties?: Partial<Record<ObjectType, SeededProperty[]>>; pipelines?: CrmPipeline[]; pipelineLimit?: number } = {}) {
    this.pipelineLimit = seed.pipelineLimit ?? DEFAULT_PIPELINE_LIMIT;
    for (const [type, list] of Object.entries(seed.properties ?? {}) as [ObjectType, SeededProperty[]][]) {
      for (const property of list)
        this.definitions(type).set(property.name, {
          hasUniqueValue: false,
          fieldType: 'text',
          groupName: this.groupsOf(type).keys().next().value!,
          ...property,
        });
    }
    for (const pipeline of seed.pipelines ?? []) this.pipelines.set(pipeline.id, copy(pipeline));
  }

  async listProperties(type: ObjectType): Promise<CrmPropertyInfo[]> {
    return [...this.definitions(type).values()].sort((a, b) => a.name.localeCompare(b.name)).map((property) => ({ ...property }));
  }

  /** The `nth` property create from now fails with `error` (default: the CRM's 500) and creates nothing: a CRM failing mid-install. */
  failPropertyCreate(nth: number, error: Error = refused(500, 'the CRM failed (500)')): void {
    this.propertyCreateFailure = { countdown: nth, error };
  }

  async createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void> {
    if (this.propertyCreateFailure && --this.propertyCreateFailure.countdown === 0) {
      const { error } = this.propertyCreateFailure;
      this.propertyCreateFailure = null;
      throw error;
    }
    if (this.definitions(type).has(property.name)) throw refused(409, `property "${property.name}" already exists on ${type}`);
    if (!this.groupsOf(type).has(property.groupName)) throw refused(400, `property group "${property.groupName}" does not exist on ${type}`);
    const { name, label, type: propertyType, fieldType, groupName, hasUniqueValue, options } = property;
    this.definitions(type).set(name, {
      name,
      label,
      type: propertyType,
      fieldType,
      groupName,
      hasUniqueValue: hasUniqueValue ?? false,
      ...(options ? { options } : {}),
    });
  }

  async listPropertyGroups(type: ObjectType): Promise<CrmPropertyGroup[]> {
    return [...this.groupsOf(type).values()].map((group) => ({ ...group }));
  }

  async createPropertyGroup(type: ObjectType, group: CrmPropertyGroup): Promise<void> {
    if (this.groupsOf(type).has(group.name)) throw refused(409, `property group "${group.name}" already exists on ${type}`);
    this.groupsOf(type).set(group.name, { name: group.name, label: group.label });
  }

  private groupsOf(type: ObjectType): Map<string, CrmPropertyGroup> {
    let groups = this.groups.get(type);
    if (!groups) {
      const name = `${type.toLowerCase().replace('_', '')}information`;
      groups = new Map([[name, { name, label: `${type.toLowerCase()} information` }]]);
      this.groups.set(type, groups);
    }
    return groups;
  }

  async deleteProperty(type: ObjectType, name: string): Promise<void> {
    if (!this.definitions(type).delete(name)) throw refused(404, `no property "${name}"`);
  }

  async listDealPipelines(): Promise<CrmPipeline[]> {
    return [...this.pipelines.values()].sort((a, b) => a.displayOrder - b.displayOrder || a.id.localeCompare(b.id)).map(copy);
  }

  /**
   * As the CRM: it generates the pipeline's id (never a seeded pipeline's) and its stages' ids; a
   * deal stage needs a probability; a portal at its limit, or a label another pipeline has, is refused.
   */
  async createDealPipeline(pipeline: NewCrmPipeline): Promise<CrmPipeline> {
    if (pipeline.stages.some((stage) => stage.metadata?.probability === undefined)) throw refused(400, 'a deal stage needs metadata.probability');
    if (this.pipelines.size >= this.pipelineLimit) throw refused(400, `the portal has reached its limit of ${this.pipelineLimit} deal pipelines`);
    if ([...this.pipelines.values()].some((existing) => existing.label === pipeline.label))
      throw refused(409, `a deal pipeline labelled "${pipeline.label}" already exists`);
    let id = String(this.nextId++);
    while (this.pipelines.has(id)) id = String(this.nextId++);
    const created: CrmPipeline = {
      ...copy(pipeline),
      id,
      stages: pipeline.stages.map((stage) => ({ ...copy(stage), id: String(this.nextId++) })),
    };
    this.pipelines.set(created.id, created);
    return copy(created);
  }

  /** As the CRM: a label another pipeline has is refused. */
  async updateDealPipeline(id: string, changes: { label?: string; displayOrder?: number }): Promise<void> {
    if (changes.label !== undefined && [...this.pipelines.values()].some((existing) => existing.id !== id && existing.label === changes.label))
      throw refused(409, `a deal pipeline labelled "${changes.label}" already exists`);
    this.pipelines.set(id, { ...this.pipeline(id), ...changes });
  }

  async deleteDealPipeline(id: string): Promise<void> {
    if (!this.pipelines.delete(id)) throw refused(404, `no deal pipeline "${id}"`);
  }

  async createDealStage(pipelineId: string, stage: NewCrmPipelineStage): Promise<CrmPipelineStage> {
    const created = { ...copy(stage), id: String(this.nextId++) };
    this.pipeline(pipelineId).stages.push(created);
    return copy(created);
  }

  async updateDealStage(pipelineId: string, stageId: string, changes: Partial<NewCrmPipelineStage>): Promise<void> {
    const stage = this.pipeline(pipelineId).stages.find((candidate) => candidate.id === stageId);
    if (!stage) throw refused(404, `no stage "${stageId}" in deal pipeline "${pipelineId}"`);
    Object.assign(stage, copy(changes));
  }

  async archiveDealStage(pipelineId: string, stageId: string): Promise<void> {
    const pipeline = this.pipeline(pipelineId);
    if (!pipeline.stages.some((stage) => stage.id === stageId)) throw refused(404, `no stage "${stageId}" in deal pipeline "${pipelineId}"`);
    pipeline.stages = pipeline.stages.filter((stage) => stage.id !== stageId);
  }

  private pipeline(id: string): CrmPipeline {
    const pipeline = this.pipelines.get(id);
    if (!pipeline) throw refused(404, `no deal pipeline "${id}"`);
    return pipeline;
  }

  protected definitions(type: ObjectType): Map<string, CrmPropertyInfo> {
    let definitions = this.properties.get(type);
    if (!definitions) this.properties.set(type, (definitions = new Map()));
    return definitions;
  }
}
