import type { MappedChange, MappedChangesMessage, ObjectType, Tenant } from '@ecomm-sync/contracts';
import type { CrmPort, CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { ECOMM_PROPERTIES, crmProperty } from '@ecomm-sync/domain';
import {
  aMappedChange,
  aPortal,
  asRepositories,
  aStoredSettings,
  FakeCheckoutRepository,
  FakeCrm,
  FakeCrmWaitRepository,
  FakeEcommerceInstallRepository,
  FakeObjectSyncRepository,
  FakeParkedChangeRepository,
  FakePortalRepository,
  FakeSyncErrorRepository,
  FakeSettingsRepository,
  FakeWaitingObjectRepository,
  type LogEntry,
  recordingLogger,
} from '@ecomm-sync/testing';
import { ApplyMappedChangesUseCase } from './apply-mapped-changes.use-case';
import { CrmWaits } from './crm-waits';
import { CrmDirectory } from './crm-directory';

export const NOW = 1_750_000_000_000;
export const WAIT_WINDOW_MS = 60 * 60 * 1000;

const text = (name: string): CrmPropertyInfo => crmProperty(name, name, 'string');
const number = (name: string): CrmPropertyInfo => crmProperty(name, name, 'number');

/** The CRM properties a portal has after the ecommerce install: a few standard ones and ours. */
const PROPERTIES: Record<ObjectType, CrmPropertyInfo[]> = {
  CONTACT: [text('email'), text('firstname'), number('age'), ...ECOMM_PROPERTIES.CONTACT],
  DEAL: [text('dealname'), text('dealstage'), number('amount'), ...ECOMM_PROPERTIES.DEAL],
  PRODUCT: [text('name'), number('price'), ...ECOMM_PROPERTIES.PRODUCT],
  LINE_ITEM: [number('quantity'), number('hs_product_id'), ...ECOMM_PROPERTIES.LINE_ITEM],
};

type Method = keyof CrmPort;
/** A fault replaces a CRM call: it may call the real one (`real`) and throw or answer as it likes. */
export type Fault = (real: (...args: never[]) => Promise<unknown>, ...args: never[]) => Promise<unknown>;

/**
 * One portal, installed and active, whose CRM is a FakeCrm behind a port that records every call
 * and can be given faults; every repository is a fake. The use case is the real one.
 */
export async function anApplierWorld() {
  const repositories = {
    objectSyncs: new FakeObjectSyncRepository(),
    syncErrors: new FakeSyncErrorRepository(),
    portals: new FakePortalRepository(),
    waitingObjects: new FakeWaitingObjectRepository(),
    ecommerceInstalls: new FakeEcommerceInstallRepository(),
    checkouts: new FakeCheckoutRepository(),
    parkedChanges: new FakeParkedChangeRepository(),
    crmWaits: new FakeCrmWaitRepository(),
    settings: new FakeSettingsRepository(),
  };
  const portal = repositories.portals.put(aPortal());
  const tenant: Tenant = { portalId: portal.portalId, appId: null };
  await repositories.ecommerceInstalls.markInstalled(tenant, NOW);
  const { rev: _rev, ...settings } = aStoredSettings();
  await repositories.settings.put(tenant, settings);

  const crm = new FakeCrm({ properties: PROPERTIES });
  const calls: { method: Method; args: unknown[] }[] = [];
  const faults = new Map<Method, Fault>();
  const port = new Proxy(crm, {
    get(target, name: Method) {
      const real = (target[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
      return (...args: unknown[]) => {
        calls.push({ method: name, args });
        const fault = faults.get(name);
        return fault ? fault(real as never, ...(args as never[])) : real(...args);
      };
    },
  }) as CrmPort;
  const directory = new CrmDirectory({ clientFor: () => port, forget: () => undefined }, { propertyCacheMs: 60_000 });

  let now = NOW;
  const refreshed: { objectType: ObjectType; ids: string[] }[] = [];
  const { logger, entries } = recordingLogger('warn');
  const clock = () => now;
  const waits = new CrmWaits(asRepositories(repositories), clock);
  const useCase = new ApplyMappedChangesUseCase({
    repositories: asRepositories(repositories),
    crm: directory,
    logger,
    waits,
    clock,
    waitWindowMs: WAIT_WINDOW_MS,
    requestRefresh: async (target, ids) => {
      refreshed.push({ objectType: target.objectType, ids });
    },
  });

  const message = (objectType: ObjectType, changes: MappedChange[], overrides: Partial<MappedChangesMessage> = {}): MappedChangesMessage => ({
    tenant,
    storeId: 'default',
    objectType,
    changes,
    ...overrides,
  });

  return {
    useCase,
    /** The portals' CRM waits the use case checks (a resume shares them). */
    waits,
    repositories,
    tenant,
    portal,
    crm,
    /** The CRM calls made since the last `calls.length = 0`, by method (listProperties left out: it is cached). */
    writes: () => calls.filter((call) => call.method !== 'listProperties').map((call) => call.method),
    calls,
    faults,
    refreshed,
    logs: entries as LogEntry[],
    message,
    /** Applies one message of changes of a type; resolves with the failed message indexes. */
    apply: (objectType: ObjectType, ...changes: MappedChange[]) => useCase.execute([message(objectType, changes)]),
    status: (objectType: ObjectType, externalObjectId: string) =>
      repositories.objectSyncs.findOne({ ...tenant, storeId: 'default', objectType, externalObjectId }),
    openErrors: async (objectType: ObjectType, externalObjectId: string) =>
      (await repositories.syncErrors.listForObject({ ...tenant, storeId: 'default', objectType, externalObjectId }, false)).map((error) => ({
        type: error.type,
        details: error.details,
      })),
    setNow: (at: number) => {
      now = at;
    },
  };
}

export type ApplierWorld = Awaited<ReturnType<typeof anApplierWorld>>;

export const aContact = (externalObjectId: string, overrides: Partial<MappedChange> = {}) =>
  aMappedChange({ externalObjectId, properties: { email: `${externalObjectId}@example.com`, firstname: externalObjectId }, ...overrides });

export const aDeal = (externalObjectId: string, overrides: Partial<MappedChange> = {}) =>
  aMappedChange({ externalObjectId, properties: { dealname: externalObjectId, dealstage: 'checkout_completed' }, ...overrides });

export const aProduct = (externalObjectId: string, overrides: Partial<MappedChange> = {}) =>
  aMappedChange({ externalObjectId, properties: { name: externalObjectId }, ...overrides });

export const aLineItem = (externalObjectId: string, dealId: string, productId: string, overrides: Partial<MappedChange> = {}) =>
  aMappedChange({ externalObjectId, properties: { quantity: '2' }, associations: { DEAL: [dealId], PRODUCT: [productId] }, ...overrides });
