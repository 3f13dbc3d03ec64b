import { type CatchUpMessage, type MappedChangesMessage, type Tenant, TOPICS } from '@ecomm-sync/contracts';
import { settingsOwner } from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import {
  anAppTenant,
  asRepositories,
  aStoredSettings,
  FakeBroker,
  FakeObjectStateRepository,
  FakeSettingsRepository,
  FakeStoreRepository,
  FakeSyncErrorRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { CatchUpPortalUseCase } from './catch-up-portal.use-case';

describe('CatchUpPortalUseCase', () => {
  let tenant: Tenant;
  let syncErrors: FakeSyncErrorRepository;
  let objectStates: FakeObjectStateRepository;
  let settings: FakeSettingsRepository;
  let stores: FakeStoreRepository;
  let broker: FakeBroker;
  let useCase: CatchUpPortalUseCase;

  beforeEach(async () => {
    tenant = anAppTenant();
    syncErrors = new FakeSyncErrorRepository();
    objectStates = new FakeObjectStateRepository();
    settings = new FakeSettingsRepository();
    stores = new FakeStoreRepository();
    for (const id of ['eu', 'us']) await stores.upsert(tenant, { id, label: id });
    broker = new FakeBroker();
    const { rev: _rev, ...record } = aStoredSettings();
    await settings.putByOwner(settingsOwner(tenant), record);
    useCase = new CatchUpPortalUseCase(asRepositories({ syncErrors, objectStates, settings, stores }), broker, recordingLogger().logger, {
      pageSize: 2,
      changesPerMessage: 100,
    });
  });

  /** Objects stored in a store whose processing met INACTIVE_PORTAL. */
  async function inactiveObjects(storeId: string, ids: string[]): Promise<void> {
    await objectStates.saveMany(
      { tenant, storeId, objectType: 'CONTACT' },
      ids.map((externalObjectId) => ({ externalObjectId, state: emptyObjectState(), expectedRev: null })),
    );
    await syncErrors.record(
      { tenant, storeId, objectType: 'CONTACT' },
      ids.map((externalObjectId) => ({
        externalObjectId,
        rev: 1,
        settingsRev: 1,
        type: 'INACTIVE_PORTAL' as const,
        details: 'inactive',
        changedAt: 1,
        erroredAt: 2,
      })),
    );
  }
  const event: CatchUpMessage = { kind: 'catch-up', portalId: 0, errorType: 'INACTIVE_PORTAL' };
  const sentIds = () =>
    broker.bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`).flatMap((message) => message.changes.map((change) => change.externalObjectId));

  it('when a portal is caught up page by page, then every object with the open error is sent once, per store, and the last page asks for no more', async () => {
    await inactiveObjects('eu', ['a', 'b']);
    await inactiveObjects('us', ['c']);
    broker.subscribe<CatchUpMessage>(TOPICS.catchUp, (next) => useCase.run(next));

    await useCase.run({ ...event, portalId: tenant.portalId });
    await broker.deliverAll();

    expect(sentIds().sort()).toEqual(['a', 'b', 'c']);
    expect(
      broker
        .bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`)
        .map((message) => message.storeId)
        .sort(),
    ).toEqual(['eu', 'us']);
    expect(broker.bodiesTo(TOPICS.catchUp)).toHaveLength(1);
  });

  it('when the errors were resolved or are of another type, then nothing is sent', async () => {
    await inactiveObjects('eu', ['a']);
    await syncErrors.resolve({ tenant, storeId: 'eu', objectType: 'CONTACT' }, ['a'], 3);

    await useCase.run({ ...event, portalId: tenant.portalId });
    await useCase.run({ ...event, portalId: tenant.portalId, errorType: 'PORTAL_NOT_SYNC_ENABLED' });

    expect(broker.published).toEqual([]);
  });

  it('when a store was deleted after its objects met the error, then its objects are not sent and the other stores’ are', async () => {
    await inactiveObjects('eu', ['a']);
    await inactiveObjects('us', ['c']);
    await stores.remove(tenant, 'eu');

    await useCase.run({ ...event, portalId: tenant.portalId });

    expect(sentIds()).toEqual(['c']);
  });
});
