import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { randomInt } from 'node:crypto';
import { CrmError } from '../domain/crm-error';
import type { Account } from './account-store';
import type { CrmModels } from './crm-models';

export interface PipelineStage {
  id: string;
  label: string;
  displayOrder: number;
  metadata?: Record<string, string>;
  createdAt?: string;
  updatedAt?: string;
}

export interface Pipeline {
  id: string;
  label: string;
  displayOrder: number;
  stages: PipelineStage[];
  createdAt?: string;
  updatedAt?: string;
}

type NewStage = Omit<PipelineStage, 'id' | 'createdAt' | 'updatedAt'>;

/** Ids as the hosted CRM makes them: numbers, as strings. */
const newId = () => String(randomInt(10_000_000, 2_000_000_000));

const toPipeline = (doc: Pipeline): Pipeline => ({
  id: doc.id,
  label: doc.label,
  displayOrder: doc.displayOrder,
  stages: doc.stages,
  ...(doc.createdAt ? { createdAt: doc.createdAt } : {}),
  ...(doc.updatedAt ? { updatedAt: doc.updatedAt } : {}),
});

/** Deal pipelines per portal, at most the account's pipeline limit of them, each label once. */
export class PipelineStore {
  constructor(private readonly models: CrmModels) {}

  async listPipelines(portalId: number): Promise<Pipeline[]> {
    const docs = await this.models.pipelines.find({ portalId }).sort({ displayOrder: 1, id: 1 }).lean<Pipeline[]>();
    return docs.map(toPipeline);
  }

  async pipeline(portalId: number, id: string): Promise<Pipeline> {
    const doc = await this.models.pipelines.findOne({ portalId, id }).lean<Pipeline>();
    if (!doc) throw CrmError.notFound(`No deal pipeline "${id}"`);
    return toPipeline(doc);
  }

  /** The CRM makes the pipeline's id and each stage's. */
  async createPipeline(account: Account, input: { label: string; displayOrder: number; stages: NewStage[] }): Promise<Pipeline> {
    const count = await this.models.pipelines.countDocuments({ portalId: account.portalId });
    if (count >= account.pipelineLimit) {
      throw CrmError.pipelineLimitReached(`The portal has reached its limit of ${account.pipelineLimit} deal pipelines`);
    }
    if (await this.models.pipelines.exists({ portalId: account.portalId, label: input.label }))
      throw CrmError.conflict(`A deal pipeline labelled "${input.label}" already exists`);
    const now = new Date().toISOString();
    const pipeline: Pipeline = {
      id: newId(),
      label: input.label,
      displayOrder: input.displayOrder,
      stages: input.stages.map((stage) => ({ ...stage, id: newId(), createdAt: now, updatedAt: now })),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.models.pipelines.create({ portalId: account.portalId, ...pipeline });
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) throw CrmError.conflict(`A deal pipeline labelled "${input.label}" already exists`);
      throw error;
    }
    return pipeline;
  }

  async deletePipeline(portalId: number, id: string): Promise<boolean> {
    return (await this.models.pipelines.deleteOne({ portalId, id })).deletedCount === 1;
  }

  async updatePipeline(portalId: number, id: string, changes: { label?: string; displayOrder?: number }): Promise<Pipeline> {
    const set = { ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)), updatedAt: new Date().toISOString() };
    if (changes.label !== undefined && (await this.models.pipelines.exists({ portalId, label: changes.label, id: { $ne: id } })))
      throw CrmError.conflict(`A deal pipeline labelled "${changes.label}" already exists`);
    const doc = await this.models.pipelines
      .findOneAndUpdate({ portalId, id }, { $set: set }, { new: true })
      .lean<Pipeline>()
      .catch((error: unknown) => {
        // A rename racing another create or rename of the same label: the unique index decides.
        if (onlyDuplicateKeyErrors(error)) throw CrmError.conflict(`A deal pipeline labelled "${changes.label}" already exists`);
        throw error;
      });
    if (!doc) throw CrmError.notFound(`No deal pipeline "${id}"`);
    return toPipeline(doc);
  }

  async createStage(portalId: number, pipelineId: string, stage: NewStage): Promise<PipelineStage> {
    const now = new Date().toISOString();
    const created: PipelineStage = { ...stage, id: newId(), createdAt: now, updatedAt: now };
    const result = await this.models.pipelines.updateOne({ portalId, id: pipelineId }, { $push: { stages: created } });
    if (result.matchedCount === 0) throw CrmError.notFound(`No deal pipeline "${pipelineId}"`);
    return created;
  }

  async updateStage(portalId: number, pipelineId: string, stageId: string, changes: Partial<NewStage>): Promise<PipelineStage> {
    const pipeline = await this.pipeline(portalId, pipelineId);
    const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
    if (!stage) throw CrmError.notFound(`No stage "${stageId}" in deal pipeline "${pipelineId}"`);
    const updated: PipelineStage = {
      ...stage,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      updatedAt: new Date().toISOString(),
    };
    await this.setStages(
      portalId,
      pipelineId,
      pipeline.stages.map((candidate) => (candidate.id === stageId ? updated : candidate)),
    );
    return updated;
  }

  async archiveStage(portalId: number, pipelineId: string, stageId: string): Promise<void> {
    const pipeline = await this.pipeline(portalId, pipelineId);
    if (!pipeline.stages.some((stage) => stage.id === stageId)) throw CrmError.notFound(`No stage "${stageId}" in deal pipeline "${pipelineId}"`);
    await this.setStages(
      portalId,
      pipelineId,
      pipeline.stages.filter((stage) => stage.id !== stageId),
    );
  }

  private async setStages(portalId: number, pipelineId: string, stages: PipelineStage[]): Promise<void> {
    await this.models.pipelines.updateOne({ portalId, id: pipelineId }, { $set: { stages, updatedAt: new Date().toISOString() } });
  }
}
