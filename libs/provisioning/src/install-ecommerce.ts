import type { ObjectType } from '@ecomm-sync/contracts';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PIPELINE_ID, ECOMM_PIPELINE_LABEL, ECOMM_PROPERTIES } from '@ecomm-sync/domain';

/** The portal cannot use the service (SPEC.md "Ecommerce pipeline deal stages"). */
export class EcommerceInstallError extends Error {
  constructor(message: string) {
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

/**
 * Creates in the portal's CRM what the service needs: the ecommerce properties and the ecommerce
 * pipeline with its six stages (reset to its defaults when it exists). Idempotent. Checks first
 * and writes after, so that a refused portal is left as it was.
 */
export async function installEcommerce(crm: CrmPort): Promise<void> {
  const pipelines = await crm.listDealPipelines();
  const ours = pipelines.find((pipeline) => pipeline.id === ECOMM_PIPELINE_ID);
  const foreign = pipelines.find((pipeline) => pipeline.id !== ECOMM_PIPELINE_ID && /ecommerce/i.test(pipeline.label));
  if (foreign) {
    throw new EcommerceInstallError(`The portal already has a pipeline named "${foreign.label}" (id ${foreign.id}) that is not the service's; rename or remove it`);
  }

  const missing: { type: ObjectType; names: Set<string> }[] = [];
  for (const type of OBJECT_TYPES) {
    const existing = new Set((await crm.listProperties(type)).map((property) => property.name));
    missing.push({ type, names: new Set(ECOMM_PROPERTIES[type].filter((property) => !existing.has(property.name)).map((p) => p.name)) });
  }
  // The pipeline first: it is the step a portal at its limit refuses, before anything else is made.
  if (ours) await crm.updateDealPipeline(defaultPipeline());
  else await crm.createDealPipeline(defaultPipeline());
  for (const { type, names } of missing) {
    for (const property of ECOMM_PROPERTIES[type].filter((p) => names.has(p.name))) {
      await crm.createProperty(type, property);
    }
  }
}
