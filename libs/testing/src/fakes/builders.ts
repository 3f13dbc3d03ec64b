import { IMPORT_SETTINGS_IDS, OBJECT_TYPES, type ObjectType, type Tenant } from '@ecomm-sync/contracts';
import { aSyncSettings } from '../support';
import type { ImportRecord, ImportRepository, ImportTypeState, ObjectSync, Portal, StoredSettings } from '@ecomm-sync/data-access';

/** Builders of data-access records: full defaults, any field overridable (libs/testing has those of wire types). */

let sequence = 0;
const next = () => ++sequence;
/** Portal ids no other test of the run uses: every test makes its own tenant (STYLE.md habit 8). */
const portalBase = 50_000_000 + (process.pid % 1000) * 10_000;
export const aPortalId = (): number => portalBase + next();

export const aTenant = (overrides: Partial<Tenant> = {}): Tenant => ({ portalId: aPortalId(), appId: null, ...overrides });

export const anAppTenant = (overrides: Partial<Tenant & { appId: string }> = {}): Tenant & { appId: string } => ({
  portalId: aPortalId(),
  appId: `app-${next()}`,
  ...overrides,
});

export const aPortal = (overrides: Partial<Portal> = {}): Portal => ({
  portalId: aPortalId(),
  name: `Portal ${next()}`,
  active: true,
  builtinCrmToken: { plaintext: `crm-token-${next()}` },
  crmConnection: null,
  crmOAuthToken: null,
  ecommPipeline: null,
  ...overrides,
});

export const aStoredSettings = (overrides: Partial<StoredSettings> = {}): StoredSettings => ({
  ...aSyncSettings(),
  importOnInstall: false,
  webhookUri: 'https://shop.example.com/import',
  rev: 1,
  ...overrides,
});

export const anObjectSync = (overrides: Partial<ObjectSync> = {}): ObjectSync => ({
  externalObjectId: `obj-${next()}`,
  crmId: 1000 + next(),
  generation: 0,
  archived: false,
  appliedRev: 1,
  appliedSettingsRev: 1,
  lastProcessedAt: 1_700_000_000_000,
  changedAt: 1_700_000_000_000,
  claim: null,
  ...overrides,
});

export const anImportTypeState = (objectType: ObjectType, overrides: Partial<ImportTypeState> = {}): ImportTypeState => ({
  settingsId: IMPORT_SETTINGS_IDS[objectType],
  expectedCount: null,
  pageItems: {},
  ended: false,
  pageCount: null,
  itemCount: null,
  ...overrides,
});

/** What `ImportRepository.create` takes: a v1 import of every object type, just initialized. */
export const aNewImport = (overrides: Partial<Parameters<ImportRepository['create']>[0]> = {}): Parameters<ImportRepository['create']>[0] => {
  const startedAt = 1_700_000_000_000 + next();
  return {
    tenant: anAppTenant(),
    storeId: 'default',
    importStartedAt: startedAt,
    version: 'v1',
    status: 'initialized',
    webhookUri: 'https://shop.example.com/import',
    types: Object.fromEntries(OBJECT_TYPES.map((type) => [type, anImportTypeState(type)])) as ImportRecord['types'],
    createdAt: startedAt,
    ...overrides,
  };
};
