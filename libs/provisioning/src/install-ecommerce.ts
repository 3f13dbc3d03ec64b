import type { ObjectType } from '@ecomm-sync/contracts';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPort } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PIPELINE_ID, ECOMM_PIPELINE_LABEL, ECOMM_PROPERTIES, ECOMM_PROPERTY_GROUP } from '@ecomm-sync/domain';

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

const defaultPipeline = () => ({
  id: ECOMM_PIPELINE_ID,
  label: ECOMM_PIPELINE_LABEL,
  displayOrder: 99,
  stages: ECOMM_DEAL_STAGES.map((stage) => ({ ...stage })),
});

const isConflict = (error: unknown) => error instanceof CrmRequestError && error.status === 409;

/**
 * Creates in the portal's CRM what the service needs: the ecommerce pipeline with its six stages
 * (reset to its default label and stages when it exists: it is shared and must not be modified)
 * and the ecommerce properties. Idempotent, and safe when two installs of one portal race (the
 * loser of a create finds the winner's). Checks first and writes after; if a write fails, what
 * this call created is deleted again, so a failed install leaves nothing half-made.
 */
export async function installEcommerce(crm: CrmPort): Promise<void> {
  const pipelines = await crm.listDealPipelines().catch(crmFailure);
  const ours = pipelines.find((pipeline) => pipeline.id === ECOMM_PIPELINE_ID);
  const foreign = pipelines.find((pipeline) => pipeline.id !== ECOMM_PIPELINE_ID && /ecommerce/i.test(pipeline.label));
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
  try {
    // The pipeline first: it is the step a portal at its limit refuses, before anything else is made.
    if (ours) await crm.updateDealPipeline(defaultPipeline());
    else await createPipeline(crm, undo);
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
}

/** A CRM that fails while the install only reads: nothing was made yet. */
const crmFailure = (error: unknown): never => {
  throw new EcommerceInstallError(
    `The CRM failed before the ecommerce setup began, so nothing was made; try again (${error instanceof Error ? error.message : String(error)})`,
    'crm-failure',
  );
};

const describe = (property: { type: string; hasUniqueValue?: boolean }) => `${property.type}${property.hasUniqueValue ? ' with unique values' : ''}`;

async function createPipeline(crm: CrmPort, undo: (() => Promise<void>)[]): Promise<void> {
  try {
    await crm.createDealPipeline(defaultPipeline());
    undo.push(() => crm.deleteDealPipeline(ECOMM_PIPELINE_ID));
  } catch (error) {
    if (isConflict(error)) return void (await crm.updateDealPipeline(defaultPipeline())); // a concurrent install made it
    if (error instanceof CrmRequestError && error.status === 400 && /limit/i.test(error.message)) {
      throw new EcommerceInstallError(
        `The portal already has its maximum number of deal pipelines, so the ecommerce pipeline cannot be added; remove a pipeline or raise the limit (${error.message})`,
        'pipeline-limit',
      );
    }
    throw error;
  }
}
