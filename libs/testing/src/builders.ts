import type {
  MappedChange,
  MappedChangesMessage,
  ObjectType,
  PropertyMapping,
  SyncBatchMessage,
  SyncSettings,
  V1SyncMessage,
  V2SyncMessage,
  V2SyncSubmission,
} from '@ecomm-sync/contracts';
import { randomUUID } from 'node:crypto';

/** Test data factories: full defaults, any field overridable. */

let sequence = 0;
const next = () => ++sequence;

export const aV1Message = (overrides: Partial<V1SyncMessage> = {}): V1SyncMessage => {
  const n = next();
  return {
    integratorObjectId: `obj-${n}`,
    action: 'UPSERT',
    changeOccurredTimestamp: 1_700_000_000_000 + n,
    propertyNameToValues: {},
    ...overrides,
  };
};

export const aV1Contact = (overrides: Partial<V1SyncMessage> = {}): V1SyncMessage => {
  const n = next();
  return aV1Message({
    integratorObjectId: `contact-${n}`,
    propertyNameToValues: { email: `person${n}.${randomUUID().slice(0, 8)}@example.com`, firstname: `Person ${n}` },
    ...overrides,
  });
};

export const aV2Message = (overrides: Partial<V2SyncMessage> = {}): V2SyncMessage => {
  const n = next();
  return { externalObjectId: `obj-${n}`, action: 'UPSERT', changedAt: 1_700_000_000_000 + n, properties: {}, ...overrides };
};

export const aV2Submission = (objectType: ObjectType, messages: V2SyncMessage[], storeId = 'default'): V2SyncSubmission => ({ storeId, objectType, messages });

export const aSyncBatch = (overrides: Partial<SyncBatchMessage> = {}): SyncBatchMessage => ({
  batchId: randomUUID(),
  tenant: { portalId: 1, appId: null },
  storeId: 'default',
  objectType: 'CONTACT',
  source: 'v2',
  receivedAt: Date.now(),
  messages: [{ externalObjectId: `obj-${next()}`, action: 'UPSERT', changedAt: 1_700_000_000_000, properties: { email: 'a@example.com' } }],
  ...overrides,
});

/** One object's mapped state as the mapper sends it to the applier: an upsert of a contact, no problems. */
export const aMappedChange = (overrides: Partial<MappedChange> = {}): MappedChange => {
  const n = next();
  return {
    externalObjectId: `obj-${n}`,
    rev: 1,
    action: 'UPSERT',
    changedAt: 1_700_000_000_000 + n,
    settingsRev: 1,
    generation: 0,
    properties: { email: `person${n}@example.com` },
    associations: {},
    problems: [],
    ...overrides,
  };
};

export const aMappedChangesMessage = (overrides: Partial<MappedChangesMessage> = {}): MappedChangesMessage => ({
  tenant: { portalId: 1, appId: null },
  storeId: 'default',
  objectType: 'CONTACT',
  changes: [aMappedChange()],
  ...overrides,
});

export const aPropertyMapping = (overrides: Partial<PropertyMapping> = {}): PropertyMapping => ({
  externalPropertyName: 'email',
  crmPropertyName: 'email',
  dataType: 'STRING',
  ...overrides,
});

/** Settings as the processing sees them: enabled, with the mappings v2 requires (contact e-mail, deal stage) and a few more. */
export const aSyncSettings = (overrides: Partial<SyncSettings> = {}): SyncSettings => ({
  enabled: true,
  mappings: {
    CONTACT: [aPropertyMapping(), aPropertyMapping({ externalPropertyName: 'firstname', crmPropertyName: 'firstname' })],
    DEAL: [
      aPropertyMapping({ externalPropertyName: 'name', crmPropertyName: 'dealname' }),
      aPropertyMapping({ externalPropertyName: 'stage', crmPropertyName: 'dealstage' }),
    ],
    PRODUCT: [aPropertyMapping({ externalPropertyName: 'name', crmPropertyName: 'name' })],
    LINE_ITEM: [aPropertyMapping({ externalPropertyName: 'quantity', crmPropertyName: 'quantity', dataType: 'NUMBER' })],
  },
  ...overrides,
});
