import type { ObjectType, SyncBatchMessage, V1SyncMessage, V2SyncMessage, V2SyncSubmission } from '@ecomm-sync/contracts';
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
