import { type MappedChange, type MappedChangesMessage, type ObjectType, TOPICS } from '@ecomm-sync/contracts';
import type { OwnedObjectState } from '@ecomm-sync/data-access';
import { keyOf, mapObject } from '@ecomm-sync/domain';
import { halveMappedChanges } from './split-mapped-changes';
import type { Broker } from '@ecomm-sync/messaging';

/**
 * Maps stored states with one owner's settings and publishes them to the applier, grouped per
 * tenant and store, at most `changesPerMessage` changes per message; resolves once all are confirmed. A message
 * too large for the broker goes as several, and one object too large alone without its state (halveMappedChanges).
 * `reapply` asks the applier to write them even where their revision was applied already.
 */
export async function publishMappedStates(
  broker: Pick<Broker, 'publish'>,
  objectType: ObjectType,
  states: readonly OwnedObjectState[],
  settings: Parameters<typeof mapObject>[3],
  changesPerMessage: number,
  { reapply = false }: { reapply?: boolean } = {},
): Promise<void> {
  const groups = new Map<string, MappedChangesMessage>();
  const publishes: Promise<void>[] = [];
  const routingKey = `${TOPICS.mappedChanges}.${objectType}`;
  for (const object of states) {
    const key = keyOf(object.tenant.portalId, object.tenant.appId, object.storeId);
    let message = groups.get(key);
    if (!message) {
      message = { tenant: object.tenant, storeId: object.storeId, objectType, changes: [], ...(reapply ? { reapply } : {}) };
      groups.set(key, message);
    }
    const change: MappedChange = {
      externalObjectId: object.externalObjectId,
      rev: object.rev,
      ...mapObject(objectType, object.externalObjectId, object.state, settings),
    };
    message.changes.push(change);
    if (message.changes.length >= changesPerMessage) {
      publishes.push(broker.publish(routingKey, message, { split: halveMappedChanges }));
      groups.delete(key);
    }
  }
  for (const message of groups.values()) publishes.push(broker.publish(routingKey, message, { split: halveMappedChanges }));
  await Promise.all(publishes);
}
