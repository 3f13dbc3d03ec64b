import { newSecret, type Repositories, sealedFor, type SecretBox } from '@ecomm-sync/data-access';
import { CrmAdminClient } from '@ecomm-sync/crm-client';

export interface ProvisionPortalInput {
  portalId?: number;
  name?: string;
  /** Given keys are for the demo and tests; otherwise fresh random ones are made. */
  apiKey?: string;
  crmToken?: string;
  pipelineLimit?: number;
}

export interface ProvisionedPortal {
  portalId: number;
  apiKey: string;
  /** The built-in CRM account's token, for the caller's own use (it is stored sealed; never print or answer it). */
  crmToken: string;
}

/** Creates a portal (a customer account) and its account in the built-in CRM, whose token is stored sealed. */
export async function provisionPortal(
  repositories: Pick<Repositories, 'portals' | 'credentials'>,
  crm: { baseUrl: string; adminToken: string },
  secretBox: SecretBox,
  input: ProvisionPortalInput = {},
): Promise<ProvisionedPortal> {
  const portalId = input.portalId ?? (await repositories.portals.nextPortalId());
  const crmToken = input.crmToken ?? newSecret('crm');
  await new CrmAdminClient(crm.baseUrl, crm.adminToken).ensureAccount(portalId, crmToken, input.pipelineLimit);
  await repositories.portals.create({
    portalId,
    name: input.name ?? `Portal ${portalId}`,
    crmTokenSealed: secretBox.seal(crmToken, sealedFor.builtinCrmToken(portalId)),
  });
  const { secret: apiKey } = await repositories.credentials.issue('portal-key', { portalId }, Date.now(), input.apiKey);
  return { portalId, apiKey, crmToken };
}
