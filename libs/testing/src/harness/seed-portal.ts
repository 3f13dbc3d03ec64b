import type { ObjectType, PropertyValue } from '@ecomm-sync/contracts';
import { SecretBox, sealedFor, type ObjectStateRepository, type Repositories } from '@ecomm-sync/data-access';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';

/** The SECRETS_KEY of services started in-process by tests (the gateway fixture's). */
export const TEST_SECRETS_KEY = 'test-secrets-key-0123456789';

/**
 * A portal with a known API key, straight in the database (tests of one service, no CRM account):
 * its built-in CRM token is a placeholder, sealed with `secretsKey` as the service under test would.
 */
export async function seedPortal(
  repositories: Pick<Repositories, 'portals' | 'credentials'>,
  portal: { portalId: number; apiKey: string; name?: string },
  secretsKey = TEST_SECRETS_KEY,
): Promise<void> {
  const crmTokenSealed = new SecretBox(secretsKey).seal('no-crm', sealedFor.builtinCrmToken(portal.portalId));
  await repositories.portals.create({ portalId: portal.portalId, name: portal.name ?? `Portal ${portal.portalId}`, crmTokenSealed });
  await repositories.credentials.issue('portal-key', { portalId: portal.portalId }, Date.now(), portal.apiKey);
}

/**
 * Stores the raw state of `count` objects of a direct-mode portal in store `default`, as if their
 * messages had been received and merged long ago (changedAt 1). For tests and benchmarks at scale.
 */
export async function seedObjectStates(
  objectStates: Pick<ObjectStateRepository, 'insertNew'>,
  portalId: number,
  objectType: ObjectType,
  count: number,
  make: (n: number) => { externalObjectId: string; properties: Record<string, PropertyValue> },
): Promise<void> {
  for (let from = 0; from < count; from += 5_000) {
    const objects = Array.from({ length: Math.min(5_000, count - from) }, (_, i) => {
      const { externalObjectId, properties } = make(from + i);
      const state = mergeMessage(emptyObjectState(), { externalObjectId, action: 'UPSERT', changedAt: 1, properties }, 1).state;
      return { externalObjectId, state };
    });
    await objectStates.insertNew({ tenant: { portalId, appId: null }, storeId: 'default', objectType }, objects);
  }
}
