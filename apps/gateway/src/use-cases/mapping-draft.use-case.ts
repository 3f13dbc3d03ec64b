import type {
  ConsoleCrmProperties,
  ConsoleDryRunRequest,
  ConsoleDryRunResult,
  ConsoleSettingsCheck,
  ObjectScope,
  ObjectType,
  SyncSettings,
  V2SettingsInput,
} from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import {
  ASSOCIATIONS,
  dryRunObject,
  emptyObjectState,
  datePropertiesOf,
  enumerationsOf,
  numberPropertiesOf,
  fromV2Settings,
  mapObject,
  mergeMessage,
  settingsProblem,
  type RawObjectState,
} from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';
import { tenantOf, type AskedTenant } from './console-tenant';

/** The portal's CRM, through its CRM connection (libs/crm-client/src/connections); null: no such portal. */
export interface PortalCrmPort {
  crmOf(portalId: number): Promise<CrmPort | null>;
}

/**
 * The console's mappings page (issue 14, page 4): the enabling rules on a draft, the CRM's
 * properties to offer, and a dry run with the draft that saves nothing. Saving goes through the
 * settings endpoint, as for every client.
 */
export class MappingDraftUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'objectStates' | 'objectSyncs' | 'accounts'>,
    private readonly crm: PortalCrmPort,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The rules the settings endpoint applies (settingsProblem), on a draft it would be sent. */
  check(draft: V2SettingsInput): ConsoleSettingsCheck {
    const problem = settingsProblem(fromV2Settings(draft, null), 'v2');
    return { ok: problem === null, problem };
  }

  async crmProperties(scope: ConsoleScope, asked: AskedTenant, objectType: ObjectType): Promise<ConsoleCrmProperties> {
    const tenant = await tenantOf(scope, asked, this.repositories.accounts);
    const properties = await (await this.crmOfPortal(tenant.portalId)).listProperties(objectType);
    return { objectType, results: properties.map(({ name, label, type }) => ({ name, label, type })).sort((a, b) => a.name.localeCompare(b.name)) };
  }

  async dryRun(scope: ConsoleScope, asked: AskedTenant, request: ConsoleDryRunRequest): Promise<ConsoleDryRunResult> {
    const tenant = await tenantOf(scope, asked, this.repositories.accounts);
    const { storeId, objectType } = request;
    const objectScope: ObjectScope = { tenant, storeId, objectType };
    let externalObjectId: string;
    let state;
    let linkedCrmId: number | null = null;
    if (request.message) {
      externalObjectId = request.message.externalObjectId;
      state = mergeMessage(
        emptyObjectState(),
        { externalObjectId, action: 'UPSERT', changedAt: null, properties: request.message.properties },
        this.clock(),
      ).state;
    } else {
      externalObjectId = request.externalObjectId!;
      const key = { ...tenant, storeId, objectType, externalObjectId };
      const [states, sync] = await Promise.all([
        this.repositories.objectStates.findMany(objectScope, [externalObjectId]),
        this.repositories.objectSyncs.findOne(key),
      ]);
      state = states.get(externalObjectId)?.state;
      if (!state) throw AppError.notFound(`Nothing is stored for ${objectType} ${externalObjectId} in store ${storeId}; type a message to dry-run instead`);
      linkedCrmId = sync?.crmId && !sync.archived ? sync.crmId : null;
    }
    const settings = fromV2Settings(request.settings, null);
    const crmProperties = await (await this.crmOfPortal(tenant.portalId)).listProperties(objectType);
    const definedProperties = new Set(crmProperties.map((property) => property.name));
    const enumerations = enumerationsOf(objectType, crmProperties);
    const dates = datePropertiesOf(crmProperties);
    const numbers = numberPropertiesOf(crmProperties);
    const associationTargets = await this.associationTargets(objectScope, externalObjectId, state, settings);
    return {
      externalObjectId,
      ...dryRunObject(objectType, externalObjectId, state, settings, { definedProperties, linkedCrmId, associationTargets, enumerations, dates, numbers }),
      settingsProblem: settingsProblem(settings, 'v2'),
    };
  }

  /** The stored links of the objects the draft's mapping associates with, as the applier reads them. */
  private async associationTargets(objectScope: ObjectScope, externalObjectId: string, state: RawObjectState, settings: SyncSettings) {
    const { objectType } = objectScope;
    const wanted = mapObject(objectType, externalObjectId, state, { ...settings, rev: 0 }).associations;
    const targets = new Map<ObjectType, Map<string, number>>();
    for (const { type } of ASSOCIATIONS[objectType] ?? []) {
      const ids = wanted[type] ?? [];
      if (ids.length > 0) targets.set(type, await this.repositories.objectSyncs.liveCrmIds({ ...objectScope, objectType: type }, ids));
    }
    return targets;
  }

  private async crmOfPortal(portalId: number): Promise<CrmPort> {
    const crm = await this.crm.crmOf(portalId);
    if (!crm) throw AppError.notFound(`No portal ${portalId}`);
    return crm;
  }
}
