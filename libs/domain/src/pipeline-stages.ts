import { ECOMM_DEAL_STAGES, ECOMM_PIPELINE_LABEL } from './ecommerce-setup';

/** A deal pipeline as the CRM answers it: its ids are the CRM's. */
export interface PipelineView {
  id: string;
  label: string;
  stages: readonly { id: string; label: string; displayOrder: number; metadata?: Record<string, string> }[];
}

/** SPEC's stage names and the CRM's stage ids of one portal's ecommerce pipeline, both ways. */
export interface StageMap {
  pipelineId: string;
  /** SPEC name → the CRM's stage id. */
  toCrm: ReadonlyMap<string, string>;
  /** The CRM's stage id → SPEC name. */
  toSpec: ReadonlyMap<string, string>;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The portal's ecommerce pipeline among its deal pipelines: the one with our label (an earlier install's, or the original service's). */
export const findEcommPipeline = <P extends PipelineView>(pipelines: readonly P[]): P | undefined =>
  pipelines.find((pipeline) => same(pipeline.label, ECOMM_PIPELINE_LABEL));

/** Another pipeline named ecommerce: SPEC says such a portal cannot use the service. */
export const findForeignEcommPipeline = <P extends PipelineView>(pipelines: readonly P[]): P | undefined =>
  pipelines.find((pipeline) => !same(pipeline.label, ECOMM_PIPELINE_LABEL) && /ecommerce/i.test(pipeline.label));

/**
 * Which CRM stage is which SPEC stage: by label first, then, for a stage renamed in the CRM, by its
 * place among the stages no label matched. Stages the pipeline lacks are missing from the map.
 */
export function matchStages(pipeline: PipelineView): Map<string, PipelineView['stages'][number]> {
  const matched = new Map<string, PipelineView['stages'][number]>();
  const left = [...pipeline.stages].sort((a, b) => a.displayOrder - b.displayOrder);
  for (const stage of ECOMM_DEAL_STAGES) {
    const index = left.findIndex((candidate) => same(candidate.label, stage.label));
    if (index >= 0) matched.set(stage.id, left.splice(index, 1)[0]);
  }
  for (const stage of ECOMM_DEAL_STAGES) if (!matched.has(stage.id) && left.length > 0) matched.set(stage.id, left.shift()!);
  return matched;
}

/** The ecommerce pipeline's ids as the install keeps them for one CRM connection: SPEC name → the CRM's stage id. */
export interface EcommPipelineIds {
  pipelineId: string;
  stageIds: Readonly<Record<string, string>>;
}

/** The ids an install keeps: the pipeline's, and each SPEC stage's that the pipeline has. */
export function ecommPipelineIdsOf(pipeline: PipelineView): EcommPipelineIds {
  return { pipelineId: pipeline.id, stageIds: Object.fromEntries([...matchStages(pipeline)].map(([name, stage]) => [name, stage.id])) };
}

/**
 * The stage map of ids an install kept, or null when they do not name every SPEC stage (kept by an
 * install before stage ids were kept, or of a pipeline missing a stage): the pipelines are read then.
 */
export function stageMapOfIds(ids: EcommPipelineIds): StageMap | null {
  if (!ECOMM_DEAL_STAGES.every((stage) => typeof ids.stageIds[stage.id] === 'string')) return null;
  const toCrm = new Map(ECOMM_DEAL_STAGES.map((stage) => [stage.id, ids.stageIds[stage.id]]));
  return { pipelineId: ids.pipelineId, toCrm, toSpec: new Map([...toCrm].map(([name, id]) => [id, name])) };
}

/**
 * The stage map of a portal's ecommerce pipeline, or null when the portal has none: the pipeline
 * the install stored the id of (a customer may have renamed it in the CRM), else the one with our label.
 */
export function stageMapOf(pipelines: readonly PipelineView[], knownPipelineId?: string | null): StageMap | null {
  const pipeline = (knownPipelineId ? pipelines.find((one) => one.id === knownPipelineId) : undefined) ?? findEcommPipeline(pipelines);
  if (!pipeline) return null;
  const toCrm = new Map([...matchStages(pipeline)].map(([name, stage]) => [name, stage.id]));
  return { pipelineId: pipeline.id, toCrm, toSpec: new Map([...toCrm].map(([name, id]) => [id, name])) };
}

/** What brings a pipeline back to SPEC's label and stages (SPEC: a store update reverts it), keeping the stages' ids. */
export interface PipelineRestore {
  relabel: boolean;
  update: { stageId: string; label: string; displayOrder: number; metadata: Record<string, string> }[];
  create: { label: string; displayOrder: number; metadata: Record<string, string> }[];
  archive: string[];
}

export function planPipelineRestore(pipeline: PipelineView): PipelineRestore {
  const matched = matchStages(pipeline);
  const update: PipelineRestore['update'] = [];
  const create: PipelineRestore['create'] = [];
  for (const stage of ECOMM_DEAL_STAGES) {
    const wanted = { label: stage.label, displayOrder: stage.displayOrder, metadata: { ...stage.metadata } as Record<string, string> };
    const found = matched.get(stage.id);
    if (!found) create.push(wanted);
    else if (found.label !== wanted.label || found.displayOrder !== wanted.displayOrder || !sameMetadata(found.metadata, wanted.metadata))
      update.push({ stageId: found.id, ...wanted });
  }
  const kept = new Set([...matched.values()].map((stage) => stage.id));
  return {
    relabel: pipeline.label !== ECOMM_PIPELINE_LABEL,
    update,
    create,
    archive: pipeline.stages.filter((stage) => !kept.has(stage.id)).map((stage) => stage.id),
  };
}

/**
 * A stage's metadata as the CRM may answer it: the hosted CRM's answers name `isClosed` of open
 * stages too ("false"), and a probability is a number however it is written ("1" or "1.0").
 */
const comparableMetadata = (metadata: Record<string, string> | undefined): Record<string, string> => {
  const { isClosed = 'false', probability, ...rest } = metadata ?? {};
  return { ...rest, isClosed, ...(probability === undefined ? {} : { probability: String(Number(probability)) }) };
};

const sameMetadata = (found: Record<string, string> | undefined, wanted: Record<string, string>) => {
  const [a, b] = [comparableMetadata(found), comparableMetadata(wanted)];
  return Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([key, value]) => a[key] === value);
};
