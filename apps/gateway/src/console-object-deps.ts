import type { CrmConnections } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { builtinObjectLink, InspectObjectUseCase } from './use-cases/inspect-object.use-case';
import { MappingDraftUseCase } from './use-cases/mapping-draft.use-case';

/** The inspector and mappings pages reach each portal's CRM through its CRM connection. */
export function consoleObjectDeps(repositories: Repositories, connections: CrmConnections, crmBaseUrl: string) {
  const portal = (portalId: number) => repositories.portals.findById(portalId);
  return {
    accounts: repositories.accounts,
    inspect: new InspectObjectUseCase(repositories, {
      objectLink: async (portalId, objectType, crmId) => {
        const found = await portal(portalId);
        return found && (!found.crmConnection || found.crmConnection.kind === 'builtin') ? builtinObjectLink(crmBaseUrl, objectType, crmId) : null;
      },
    }),
    mappings: new MappingDraftUseCase(repositories, {
      crmOf: async (portalId) => {
        const found = await portal(portalId);
        return found ? connections.clientFor(found) : null;
      },
    }),
  };
}
