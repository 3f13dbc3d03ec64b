import type { RefreshObjectsMessage } from '@ecomm-sync/contracts';
import type { OwnedObjectState, Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { ofLiveStores } from './live-stores';
import { publishMappedStates } from './publish-mapped-states';

/**
 * The applier found that two of its replicas wrote the same objects at once and an older write may
 * have landed last, or the console retries their errors: their stored states are mapped again with
 * the settings in force and sent to be written even where that revision was applied (none of a
 * store deleted since) (docs/decisions/0018-newest-wins-under-concurrency.md).
 */
export class RefreshObjectsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'objectStates' | 'settings' | 'stores'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly options: { changesPerMessage: number },
  ) {}

  async run(message: RefreshObjectsMessage): Promise<void> {
    const { tenant, storeId, objectType, externalObjectIds } = message;
    const states = await this.repositories.objectStates.findMany(message, externalObjectIds);
    // A store deleted since sends nothing more (a console retry of its errors, a repair of its objects).
    const owned = await ofLiveStores(
      this.repositories.stores,
      [...states.values()].map((state): OwnedObjectState => ({ ...state, id: '', tenant, storeId })),
    );
    const settings = await this.repositories.settings.get(tenant);
    await publishMappedStates(this.broker, objectType, owned, settings, this.options.changesPerMessage, { reapply: true });
    this.logger.info('objects refreshed', { portalId: tenant.portalId, objectType, objects: owned.length });
  }
}
