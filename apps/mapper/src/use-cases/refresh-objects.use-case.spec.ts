import { type MappedChangesMessage, type Tenant, TOPICS } from '@ecomm-sync/contracts';
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
  recordingLogger,
} from '@ecomm-sync/testing';
import { RefreshObjectsUseCase } from './refresh-objects.use-case';

describe('RefreshObjectsUseCase', () => {
  let tenant: Tenant;
  let objectStates: FakeObjectStateRepository;
  let broker: FakeBroker;
  let stores: FakeStoreRepository;
  let useCase: RefreshObjectsUseCase;

  beforeEach(async () => {
    tenant = anAppTenant();
    objectStates = new FakeObjectStateRepository(() => 5_000);
    broker = new FakeBroker();
    stores = new FakeStoreRepository();
    await stores.upsert(tenant, { id: 'eu', label: 'EU' });
    const settings = new FakeSettingsRepository();
    const { rev: _rev, ...record } = aStoredSettings();
    await settings.putByOwner(settingsOwner(tenant), record);
    await objectStates.saveMany(
      { tenant, storeId: 'eu', objectType: 'CONTACT' },
      ['a', 'b', 'c'].map((externalObjectId) => ({ externalObjectId, state: emptyObjectState(), expectedRev: null })),
    );
    useCase = new RefreshObjectsUseCase(asRepositories({ objectStates, settings, stores }), broker, recordingLogger().logger, { changesPerMessage: 2 });
  });

  const sent = () => broker.bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.CONTACT`);

  it('when objects are refreshed, then their stored states are sent again as reapplied changes at their stored revision, in messages of at most changesPerMessage', async () => {
    const stored = await objectStates.findMany({ tenant, storeId: 'eu', objectType: 'CONTACT' }, ['a', 'b', 'c']);

    await useCase.run({ kind: 'refresh-objects', tenant, storeId: 'eu', objectType: 'CONTACT', externalObjectIds: ['a', 'b', 'c'] });

    expect(sent().map((message) => message.changes.length)).toEqual([2, 1]);
    for (const message of sent()) expect(message).toMatchObject({ tenant, storeId: 'eu', objectType: 'CONTACT', reapply: true });
    expect(sent().flatMap((message) => message.changes.map((change) => [change.externalObjectId, change.rev]))).toEqual(
      ['a', 'b', 'c'].map((id) => [id, stored.get(id)!.rev]),
    );
  });

  it.each([
    ['an object the store does not have', { storeId: 'eu', externalObjectIds: ['unknown'] }],
    ['objects of another store', { storeId: 'us', externalObjectIds: ['a', 'b'] }],
  ])('when the refresh names %s, then nothing is sent', async (_case, { storeId, externalObjectIds }) => {
    await useCase.run({ kind: 'refresh-objects', tenant, storeId, objectType: 'CONTACT', externalObjectIds });

    expect(broker.published).toEqual([]);
  });

  it('when the store was deleted since (a retry from the console, a repair), then nothing is sent', async () => {
    await stores.remove(tenant, 'eu');

    await useCase.run({ kind: 'refresh-objects', tenant, storeId: 'eu', objectType: 'CONTACT', externalObjectIds: ['a', 'b'] });

    expect(broker.published).toEqual([]);
  });
});
