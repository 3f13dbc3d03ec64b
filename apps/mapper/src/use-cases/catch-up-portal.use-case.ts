import { type CatchUpMessage, type ObjectType, TOPICS } from '@ecomm-sync/contracts';
import type { OwnedObjectState, Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { keyOf } from '@ecomm-sync/domain';
import { ofLiveStores } from './live-stores';
import { publishMappedStates } from './publish-mapped-states';

/**
 * After a portal is enabled again (INACTIVE_PORTAL) or a tenant installed (PORTAL_NOT_SYNC_ENABLED):
 * the objects whose processing met that error (never recorded as processed) are mapped from their stored state with the current settings and sent to
 * the applier, one page per message. Doing a page twice is harmless: the applier skips revisions
 * it already applied, and applying resolves the errors.
 */
export class CatchUpPortalUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'syncErrors' | 'objectStates' | 'settings' | 'stores'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly options: { pageSize: number; changesPerMessage: number },
  ) {}

  async run(message: CatchUpMessage): Promise<void> {
    const { portalId, appId, errorType, afterId } = message;
    const page = await this.repositories.syncErrors.pageOpenOfType(portalId, appId, errorType, afterId ?? null, this.options.pageSize);
    const groups = new Map<string, { key: (typeof page)[number]['key']; ids: Set<string> }>();
    for (const { key } of page) {
      const groupKey = keyOf(key.appId, key.storeId, key.objectType);
      const group = groups.get(groupKey) ?? { key, ids: new Set<string>() };
      group.ids.add(key.externalObjectId);
      groups.set(groupKey, group);
    }
    for (const { key, ids } of groups.values()) {
      const tenant = { portalId, appId: key.appId };
      const states = await this.repositories.objectStates.findMany({ tenant, storeId: key.storeId, objectType: key.objectType }, [...ids]);
      const owned: OwnedObjectState[] = [...states.values()].map((state) => ({ ...state, id: '', tenant, storeId: key.storeId }));
      const settings = await this.repositories.settings.get(tenant);
      await publishMappedStates(
        this.broker,
        key.objectType as ObjectType,
        await ofLiveStores(this.repositories.stores, owned),
        settings,
        this.options.changesPerMessage,
      );
    }
    this.logger.info('catch-up page sent', { portalId, appId, errorType, objects: page.length });
    if (page.length === this.options.pageSize) {
      await this.broker.publish(TOPICS.catchUp, { ...message, afterId: page[page.length - 1].id } satisfies CatchUpMessage);
    }
  }
}
