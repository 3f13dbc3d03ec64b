import type * as pipelines from '@hubspot/api-client/lib/codegen/crm/pipelines';
import type { CrmPipeline, CrmPipelineStage } from './crm-port';

/** The SDK's Pipeline and PipelineStage models as the port's plain values. */
export const toCrmStage = (stage: pipelines.PipelineStage): CrmPipelineStage => ({
  id: stage.id,
  label: stage.label,
  displayOrder: stage.displayOrder,
  metadata: { ...(stage.metadata ?? {}) },
});

export const toCrmPipeline = (pipeline: pipelines.Pipeline): CrmPipeline => ({
  id: pipeline.id,
  label: pipeline.label,
  displayOrder: pipeline.displayOrder,
  stages: pipeline.stages.map(toCrmStage),
});
