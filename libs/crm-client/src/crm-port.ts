import type { ObjectType } from '@ecomm-sync/contracts';

export const CRM_BATCH_LIMIT = 100;

export interface CrmObject {
  id: number;
  properties: Record<string, string | null>;
}

/** A property as the CRM's properties API defines it (the SDK's PropertyCreate and Property). */
export interface CrmPropertyInfo {
  name: string;
  label: string;
  /** string, number, date, datetime, enumeration or bool. */
  type: string;
  /** How the CRM's UI edits it: text, number, date, booleancheckbox, select, … */
  fieldType: string;
  /** The property group it belongs to; the group must exist first. */
  groupName: string;
  hasUniqueValue?: boolean;
  /** The values of an enumeration or bool, in order. */
  options?: { label: string; value: string }[];
}

export interface CrmPropertyGroup {
  name: string;
  label: string;
}

/** A deal stage as the caller gives it: the CRM generates its id. `metadata.probability` is required on deal stages. */
export interface NewCrmPipelineStage {
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
}

export interface CrmPipelineStage extends NewCrmPipelineStage {
  id: string;
}

/** A deal pipeline as the caller gives it: the CRM generates its id and its stages' ids. */
export interface NewCrmPipeline {
  label: string;
  displayOrder: number;
  stages: NewCrmPipelineStage[];
}

export interface CrmPipeline extends Omit<NewCrmPipeline, 'stages'> {
  id: string;
  stages: CrmPipelineStage[];
}

export interface AssociationPair {
  fromId: number;
  toId: number;
}

/** One input of a batch write that the CRM refused while it wrote the others (a 207 answer). */
export interface CrmInputFailure {
  /** Index into the inputs passed to the method; -1 when the CRM did not say which input it refused. */
  index: number;
  message: string;
  category?: string;
}

/**
 * The one way the applier and the install step reach a CRM: an objects API in the shape of the
 * public CRM v3 API. Batches of any size are split into requests of at most 100.
 *
 * Deal stages: `dealstage` values that cross this port are SPEC's stage names (checkout_pending, …)
 * for deals of the ecommerce pipeline; HttpCrmClient maps them to and from the CRM's stage ids.
 *
 * Failures (HttpCrmClient): a `CrmRequestError` for an answer that refuses the request (a 4xx other
 * than 429); a `CrmUnavailableError` (a CrmRequestError, `retriable`, with `reason`
 * 'rate-limited' | 'daily-cap' | 'unreachable', `until` and `lastAnswer`) when the CRM is
 * rate-limited, out of its daily cap, or does not answer for longer than the client may wait:
 * park the work until `until` rather than fail it.
 *
 * Batch create, update and upsert resolve with every written object when all inputs were written.
 * When the CRM writes some inputs and refuses others (207 multi-status), they reject with a
 * `CrmPartialFailure` (a CrmRequestError with status 207, not retriable) whose `results` are the
 * objects written (of every chunk) and whose `failures` (CrmInputFailure) name the refused inputs
 * by their index in `inputs`.
 */
export interface CrmPort {
  batchCreate(type: ObjectType, inputs: { properties: Record<string, string | null> }[]): Promise<CrmObject[]>;
  batchUpdate(type: ObjectType, inputs: { id: number; properties: Record<string, string | null> }[]): Promise<CrmObject[]>;
  /**
   * Creates or updates by a unique property (contacts also by `email`, matched without case: one
   * contact per e-mail); results carry that property so callers can match them. One input per value.
   */
  batchUpsert(type: ObjectType, idProperty: string, inputs: { id: string; properties: Record<string, string | null> }[]): Promise<CrmObject[]>;
  batchArchive(type: ObjectType, ids: number[]): Promise<void>;
  batchRead(type: ObjectType, ids: number[], properties: string[]): Promise<CrmObject[]>;
  listProperties(type: ObjectType): Promise<CrmPropertyInfo[]>;
  createProperty(type: ObjectType, property: CrmPropertyInfo): Promise<void>;
  deleteProperty(type: ObjectType, name: string): Promise<void>;
  listPropertyGroups(type: ObjectType): Promise<CrmPropertyGroup[]>;
  /** 409 when the group exists. */
  createPropertyGroup(type: ObjectType, group: CrmPropertyGroup): Promise<void>;
  listDealPipelines(): Promise<CrmPipeline[]>;
  /** The created pipeline, with the ids the CRM generated for it and its stages. */
  createDealPipeline(pipeline: NewCrmPipeline): Promise<CrmPipeline>;
  updateDealPipeline(id: string, changes: { label?: string; displayOrder?: number }): Promise<void>;
  deleteDealPipeline(id: string): Promise<void>;
  createDealStage(pipelineId: string, stage: NewCrmPipelineStage): Promise<CrmPipelineStage>;
  updateDealStage(pipelineId: string, stageId: string, changes: Partial<NewCrmPipelineStage>): Promise<void>;
  archiveDealStage(pipelineId: string, stageId: string): Promise<void>;
  batchAssociate(fromType: ObjectType, toType: ObjectType, pairs: AssociationPair[]): Promise<void>;
}
