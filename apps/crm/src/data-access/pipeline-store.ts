import { CrmError } from '../domain/crm-error';
import type { Account } from './account-store';
import type { CrmModels } from './crm-models';
import { isDuplicateKey } from './duplicate-key';

export interface Pipeline {
  id: string;
  label: string;
  displayOrder: number;
  stages: { id: string; label: string; displayOrder: number; metadata?: Record<string, string> }[];
}

/** Deal pipelines per portal, at most the account's pipeline limit of them. */
export class PipelineStore {
  constructor(private readonly models: CrmModels) {}

  async listPipelines(portalId: number): Promise<Pipeline[]> {
    const docs = await this.models.pipelines.find({ portalId }).sort({ displayOrder: 1, id: 1 }).lean();
    return docs.map(({ id, label, displayOrder, stages }) => ({ id, label, displayOrder, stages: stages as Pipeline['stages'] }));
  }

  async createPipeline(account: Account, pipeline: Pipeline): Promise<Pipeline> {
    const count = await this.models.pipelines.countDocuments({ portalId: account.portalId });
    if (count >= account.pipelineLimit) {
      throw CrmError.pipelineLimitReached(`The portal has reached its limit of ${account.pipelineLimit} deal pipelines`);
    }
    try {
      await this.models.pipelines.create({ portalId: account.portalId, ...pipeline });
    } catch (error) {
      if (isDuplicateKey(error)) throw CrmError.conflict(`A pipeline with id "${pipeline.id}" already exists`);
      throw error;
    }
    return pipeline;
  }

  async deletePipeline(portalId: number, id: string): Promise<boolean> {
    return (await this.models.pipelines.deleteOne({ portalId, id })).deletedCount === 1;
  }

  async updatePipeline(portalId: number, id: string, changes: Partial<Omit<Pipeline, 'id'>>): Promise<Pipeline> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const doc = await this.models.pipelines.findOneAndUpdate({ portalId, id }, { $set: set }, { new: true }).lean();
    if (!doc) throw CrmError.notFound(`No deal pipeline "${id}"`);
    return { id: doc.id, label: doc.label, displayOrder: doc.displayOrder, stages: doc.stages as Pipeline['stages'] };
  }
}
