import { OBJECT_TYPES, type ObjectType } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPipeline, type CrmPort, type NewCrmPipeline } from '@ecomm-sync/crm-client';
import { connectionVersionOf, currentEcommPipeline, type Portal, type PortalRepository } from '@ecomm-sync/data-access';
import {
  ECOMM_DEAL_STAGES,
  ECOMM_PIPELINE_DISPLAY_ORDER,
  ECOMM_PIPELINE_LABEL,
  ECOMM_PROPERTIES,
  ECOMM_PROPERTY_GROUP,
  findEcommPipeline,
  ecommPipelineIdsOf,
  findForeignEcommPipeline,
  planPipelineRestore,
  type EcommPipelineIds,
} from '@ecomm-sync/domain';

export type InstallRefusal = 'foreign-pipeline' | 'pipeline-limit' | 'conflicting-property' | 'crm-failure';

/** The portal cannot use the service (SPEC.md "Ecommerce pipeline deal stages"), or its CRM failed. */
export class EcommerceInstallError extends Error {
  constructor(
    message: string,
    readonly reason: InstallRefusal,
  ) {
    super(message);
    this.name = 'EcommerceInstallError';
  }
}

/** The pipeline as the CRM's pipelines API creates it: the CRM generates its and its stages' ids. */
const defaultPipeline = (): NewCrmPipeline => ({
  label: ECOMM_PIPELINE_LABEL,
  displayOrder: ECOMM_PIPELINE_DISPLAY_ORDER,
  stages: ECOMM_DEAL_STAGES.map(({ label, displayOrder, metadata }) => ({ label, displayOrder, metadata: { ...metadata } })),
});

const isConflict = (error: unknown) => error instanceof CrmRequestError && error.status === 409;

/**
 * Creates in the portal's CRM what the service needs: the ecommerce pipeline with its six stages
 * (reset to its default label and stages when it exists: it is shared and must not be modified)
 * and the ecommerce properties in their group. Answers the pipeline's id, for the caller to keep
 * and pass as `knownPipelineId` next time (a user may rename the pipeline in the CRM). Idempotent, and safe when two installs of one portal race (the
 * loser of a create finds the winner's). Checks first and writes after; if a write fails, what
 * this call created is deleted again, so a failed install leaves nothing half-made.
 */
export async function installEcommerce(crm: CrmPort, knownPipelineId: string | null = null): Promise<EcommPipelineIds> {
  const pipelines = await crm.listDealPipelines().catch(crmFailure);
  // Ours: the one an earlier install made (its id; a user may have renamed it), else by its label.
  const ours = pipelines.find((pipeline) => pipeline.id === knownPipelineId) ?? findEcommPipeline(pipelines);
  const others = pipelines.filter((pipeline) => pipeline !== ours);
  // Another pipeline with the service's own label is foreign too once ours was renamed (found by its
  // id): the CRM would refuse to give ours its label back.
  const foreign = findForeignEcommPipeline(others) ?? (ours ? findEcommPipeline(others) : undefined);
  if (foreign) {
    throw new EcommerceInstallError(
      `The portal already has a pipeline named "${foreign.label}" (id ${foreign.id}) that is not the service's; rename or remove it`,
      'foreign-pipeline',
    );
  }
  const missing: { type: ObjectType; names: Set<string>; group: boolean }[] = [];
  const conflicting: string[] = [];
  for (const type of OBJECT_TYPES) {
    const existing = new Map((await crm.listProperties(type).catch(crmFailure)).map((property) => [property.name, property]));
    const names = new Set(ECOMM_PROPERTIES[type].filter((property) => !existing.has(property.name)).map((p) => p.name));
    // The group is needed only for properties still to be made (an earlier install's are reused).
    const group = names.size > 0 && !(await crm.listPropertyGroups(type).catch(crmFailure)).some((g) => g.name === ECOMM_PROPERTY_GROUP.name);
    missing.push({ type, names, group });
    for (const needed of ECOMM_PROPERTIES[type]) {
      const found = existing.get(needed.name);
      if (found && (found.type !== needed.type || !!found.hasUniqueValue !== !!needed.hasUniqueValue)) {
        conflicting.push(`${type} "${needed.name}" is ${describe(found)}, the service needs ${describe(needed)}`);
      }
    }
  }
  // A property made by someone else with another definition would break syncing for good (a sync
  // key that is not unique makes every create fail, a synced flag with unique values every object
  // after the first): refuse before anything is written.
  if (conflicting.length > 0) {
    throw new EcommerceInstallError(
      `The portal's CRM has properties the service needs with another definition: ${conflicting.join('; ')}. Delete them (the service creates them as it needs them) and install again`,
      'conflicting-property',
    );
  }

  const undo: (() => Promise<void>)[] = [];
  let pipeline: CrmPipeline;
  try {
    // The pipeline first: it is the step a portal at its limit refuses, before anything else is made.
    pipeline = ours ? await restorePipeline(crm, ours) : await createPipeline(crm, undo);
    for (const { type, names, group } of missing) {
      if (group) {
        try {
          await crm.createPropertyGroup(type, ECOMM_PROPERTY_GROUP);
        } catch (error) {
          if (!isConflict(error)) throw error; // made meanwhile by a concurrent install: fine
        }
      }
      for (const property of ECOMM_PROPERTIES[type].filter((p) => names.has(p.name))) {
        try {
          await crm.createProperty(type, property);
          undo.push(() => crm.deleteProperty(type, property.name));
        } catch (error) {
          if (!isConflict(error)) throw error; // made meanwhile by a concurrent install: fine
        }
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    if (error instanceof EcommerceInstallError) throw error;
    throw new EcommerceInstallError(
      `The CRM failed during the ecommerce setup, which was undone; try again (${error instanceof Error ? error.message : String(error)})`,
      'crm-failure',
    );
  }
  return ecommPipelineIdsOf(pipeline);
}

/** A CRM that fails while the install only reads: nothing was made yet. */
const crmFailure = (error: unknown): never => {
  throw new EcommerceInstallError(
    `The CRM failed before the ecommerce setup began, so nothing was made; try again (${error instanceof Error ? error.message : String(error)})`,
    'crm-failure',
  );
};

const describe = (property: { type: string; hasUniqueValue?: boolean }) => `${property.type}${property.hasUniqueValue ? ' with unique values' : ''}`;

/**
 * Brings the pipeline back to SPEC's label and stages (SPEC: it must not be modified, and a store
 * update reverts it), through the CRM's stage endpoints, so that the stages keep their ids and the
 * deals in them stay where they are.
 */
async function restorePipeline(crm: CrmPort, pipeline: CrmPipeline): Promise<CrmPipeline> {
  const plan = planPipelineRestore(pipeline);
  if (plan.relabel) await crm.updateDealPipeline(pipeline.id, { label: ECOMM_PIPELINE_LABEL });
  const kept = pipeline.stages.filter((stage) => !plan.archive.includes(stage.id));
  const updated = kept.map((stage) => {
    const change = plan.update.find((one) => one.stageId === stage.id);
    return change ? { ...stage, label: change.label, displayOrder: change.displayOrder, metadata: change.metadata } : stage;
  });
  for (const { stageId, ...changes } of plan.update) await crm.updateDealStage(pipeline.id, stageId, changes);
  const created = [];
  for (const stage of plan.create) created.push(await crm.createDealStage(pipeline.id, stage));
  for (const stageId of plan.archive) await crm.archiveDealStage(pipeline.id, stageId);
  // The pipeline as it now is, without reading it again: the stage ids are what the install keeps.
  return { ...pipeline, label: ECOMM_PIPELINE_LABEL, stages: [...updated, ...created] };
}

async function createPipeline(crm: CrmPort, undo: (() => Promise<void>)[]): Promise<CrmPipeline> {
  try {
    const created = await crm.createDealPipeline(defaultPipeline());
    undo.push(() => crm.deleteDealPipeline(created.id));
    return created;
  } catch (error) {
    // Labels are unique: a concurrent install made it meanwhile.
    const made = isConflict(error) ? findEcommPipeline(await crm.listDealPipelines()) : undefined;
    if (made) return restorePipeline(crm, made);
    if (error instanceof CrmRequestError && error.status === 400 && /limit/i.test(error.message)) {
      throw new EcommerceInstallError(
        `The portal already has its maximum number of deal pipelines, so the ecommerce pipeline cannot be added; remove a pipeline or raise the limit (${error.message})`,
        'pipeline-limit',
      );
    }
    throw error;
  }
}

/**
 * The install against the portal's current CRM connection, keeping the ids it found or made for that
 * connection (decision 43): ids kept for a connection since replaced belong to another CRM account
 * and are neither passed to the install nor used by the CRM adapter.
 */
export async function installEcommerceFor(
  portals: Pick<PortalRepository, 'setEcommPipeline'>,
  crm: CrmPort,
  portal: Pick<Portal, 'portalId' | 'crmConnection' | 'ecommPipeline'>,
): Promise<EcommPipelineIds> {
  const kept = currentEcommPipeline(portal);
  const ids = await installEcommerce(crm, kept?.pipelineId ?? null);
  if (!kept || !sameIds(kept, ids)) await portals.setEcommPipeline(portal.portalId, { ...ids, forConnection: connectionVersionOf(portal) });
  return ids;
}

const sameIds = (a: EcommPipelineIds, b: EcommPipelineIds) =>
  a.pipelineId === b.pipelineId && JSON.stringify(Object.entries(a.stageIds).sort()) === JSON.stringify(Object.entries(b.stageIds).sort());
