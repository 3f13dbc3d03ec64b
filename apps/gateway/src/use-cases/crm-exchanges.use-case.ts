import type { ConsoleCrmExchange, ConsoleCrmExchanges, ObjectType } from '@ecomm-sync/contracts';
import { crmObjectKey } from '@ecomm-sync/crm-client';
import type { ConsoleScope, CrmExchangeRecord, ObjectSync, Repositories } from '@ecomm-sync/data-access';
import { syncKeyOf } from '@ecomm-sync/domain';
import { tenantOf, type AskedTenant } from './console-tenant';

/** Incarnations of an object whose sync keys are looked for (a delete and a newer upsert make one more); the newest are kept. */
const GENERATIONS_SEARCHED = 20;

const toConsole = ({ at, ...exchange }: CrmExchangeRecord): ConsoleCrmExchange => ({ ...exchange, at: at.getTime() });

/**
 * The keys the CRM clients recorded for one object (decision 0051): the sync key of each of its
 * incarnations, which its creates carried, and its CRM id, which its updates, archives and
 * associations carried.
 */
export function crmExchangeKeysOf(
  scope: Parameters<typeof syncKeyOf>[0],
  externalObjectId: string,
  sync: Pick<ObjectSync, 'crmId' | 'generation'> | null,
): string[] {
  const newest = sync?.generation ?? 0;
  const keys: string[] = [];
  for (let generation = Math.max(0, newest - GENERATIONS_SEARCHED + 1); generation <= newest; generation++)
    keys.push(crmObjectKey(scope.objectType, 'key', syncKeyOf(scope, externalObjectId, generation)));
  if (sync?.crmId) keys.push(crmObjectKey(scope.objectType, 'crm', sync.crmId));
  return keys;
}

/** The CRM request log as the console reads it: an object's exchanges (its tenant's), and recent failures per CRM account (the operator's). */
export class CrmExchangesUseCase {
  constructor(private readonly repositories: Pick<Repositories, 'crmExchanges' | 'objectSyncs' | 'accounts'>) {}

  async forObject(
    scope: ConsoleScope,
    asked: AskedTenant & { storeId: string; objectType: ObjectType; externalObjectId: string },
    limit: number,
  ): Promise<ConsoleCrmExchanges> {
    const tenant = await tenantOf(scope, asked, this.repositories.accounts);
    const { storeId, objectType, externalObjectId } = asked;
    const sync = await this.repositories.objectSyncs.findOne({ ...tenant, storeId, objectType, externalObjectId });
    // An application reads the exchanges that carried its own sync keys, and those that named its object's CRM id
    // when sent for it. That id may be another tenant's object too (a portal keeps one contact per e-mail, decision
    // 44), so other exchanges that name it may be another tenant's batches, bodies and all; a portal's credential
    // reads every tenant of the portal anyway. A scope of one owner (as tenantOf decides it) without an
    // application's id (none such today) gets nothing by CRM id.
    const ofOneOwner = scope.appId !== undefined;
    const keys = crmExchangeKeysOf({ tenant, storeId, objectType }, externalObjectId, ofOneOwner && sync ? { ...sync, crmId: null } : sync);
    const sentFor = typeof scope.appId === 'string' && sync?.crmId ? { appId: scope.appId, keys: [crmObjectKey(objectType, 'crm', sync.crmId)] } : undefined;
    const found = await this.repositories.crmExchanges.listForObject(tenant.portalId, keys, limit, sentFor);
    return { limit, results: found.map(toConsole) };
  }

  async recentFailures(query: { account?: string; limit: number }): Promise<ConsoleCrmExchanges> {
    return { limit: query.limit, results: (await this.repositories.crmExchanges.recentFailures(query)).map(toConsole) };
  }
}
