import { CRM_OBJECT_PATHS, type ConsoleObjectInspection, type ObjectType } from '@ecomm-sync/contracts';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import { errorAdvice, waitsForSetAside, inspectedStatus, isLive, mapObject } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';
import { tenantOf, type AskedTenant } from './console-tenant';

/** Most raw messages one inspection lists (the newest). */
const MESSAGES_SHOWN = 100;

/** Whether a portal's CRM is the built-in one, and where a person finds its objects then. */
export interface CrmLinkPort {
  objectLink(portalId: number, objectType: ObjectType, crmId: number): Promise<string | null>;
}

/** The built-in CRM's object address, for portals whose CRM is the built-in one. */
export const builtinObjectLink = (crmBaseUrl: string, objectType: ObjectType, crmId: number) =>
  `${crmBaseUrl.replace(/\/$/, '')}/crm/v3/objects/${CRM_OBJECT_PATHS[objectType]}/${crmId}`;

/**
 * The console's object inspector (issue 14, page 3): what was received for one sender object,
 * its merged state, how the settings in force map it, its CRM link and its error history, read
 * from the repositories the services write.
 */
export class InspectObjectUseCase {
  constructor(
    private readonly repositories: Pick<
      Repositories,
      'rawMessages' | 'objectStates' | 'objectSyncs' | 'syncErrors' | 'settings' | 'accounts' | 'waitingObjects'
    >,
    private readonly crmLinks: CrmLinkPort,
    private readonly clock: () => number = Date.now,
  ) {}

  async inspect(
    scope: ConsoleScope,
    asked: AskedTenant & { storeId: string; objectType: ObjectType; externalObjectId: string },
  ): Promise<ConsoleObjectInspection> {
    const { rawMessages, objectStates, objectSyncs, syncErrors, settings, waitingObjects } = this.repositories;
    const tenant = await tenantOf(scope, asked, this.repositories.accounts);
    const { storeId, objectType, externalObjectId } = asked;
    const key = { ...tenant, storeId, objectType, externalObjectId };
    const [received, states, sync, errors, stored, waiting] = await Promise.all([
      rawMessages.listForObject(key, MESSAGES_SHOWN),
      objectStates.findMany({ tenant, storeId, objectType }, [externalObjectId]),
      objectSyncs.findOne(key),
      syncErrors.listForObject(key, true),
      settings.get(tenant),
      waitingObjects.isWaiting({ tenant, storeId, objectType }, externalObjectId, this.clock()),
    ]);
    const state = states.get(externalObjectId)?.state ?? null;
    if (received.messages.length === 0 && !state && !sync && errors.length === 0) {
      throw AppError.notFound(
        `Nothing was received for ${objectType} ${externalObjectId} in store ${storeId}; check the store and the id as the store sends it`,
      );
    }
    const open = errors.filter((error) => error.status === 'OPEN');
    const mapped = state ? mapObject(objectType, externalObjectId, state, stored) : null;
    const crmId = sync?.crmId ?? null;
    return {
      ...key,
      appId: tenant.appId ?? null,
      status: inspectedStatus({
        received: received.messages.length > 0 || state !== null,
        processed: (sync?.lastProcessedAt ?? null) !== null,
        crmId,
        archived: sync?.archived ?? false,
        openErrors: open.length,
        // As the store overview counts it: a change of the object waits for what it names (decision 23).
        waiting,
      }),
      crm:
        sync && crmId !== null
          ? {
              id: crmId,
              archived: sync.archived,
              lastProcessedAt: sync.lastProcessedAt,
              link: sync.archived ? null : await this.crmLinks.objectLink(tenant.portalId, objectType, crmId),
            }
          : null,
      messages: received.messages,
      moreMessages: received.hasMore,
      merged: state ? { properties: state.properties, associations: state.associations, live: isLive(state) } : null,
      mapped: mapped ? { properties: mapped.properties, associations: mapped.associations, problems: mapped.problems } : null,
      errors: errors.map((error) => ({
        type: error.type,
        details: error.details,
        status: error.status,
        changedAt: error.changedAt,
        erroredAt: error.erroredAt,
        whatToDo: errorAdvice(error.type, { setAside: waitsForSetAside(error) }).whatToDo,
        ...(error.crm ? { crm: error.crm } : {}),
      })),
    };
  }
}
