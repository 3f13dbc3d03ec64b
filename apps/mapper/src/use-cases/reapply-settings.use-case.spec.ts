import { type MappedChangesMessage, type ReapplyChunkMessage, type SettingsChangedMessage, type Tenant, TOPICS } from '@ecomm-sync/contracts';
import { settingsOwner } from '@ecomm-sync/data-access';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import {
  anAppTenant,
  asRepositories,
  aStoredSettings,
  FakeBroker,
  FakeObjectStateRepository,
  FakeReapplyJobRepository,
  FakeSettingsRepository,
  FakeStoreRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { ReapplySettingsUseCase, type ReapplyOptions } from './reapply-settings.use-case';

describe('ReapplySettingsUseCase', () => {
  let app: Tenant & { appId: string };
  let owner: string;
  let settings: FakeSettingsRepository;
  let objectStates: FakeObjectStateRepository;
  let reapplyJobs: FakeReapplyJobRepository;
  let stores: FakeStoreRepository;
  let broker: FakeBroker;

  beforeEach(async () => {
    app = anAppTenant();
    owner = settingsOwner(app);
    settings = new FakeSettingsRepository();
    objectStates = new FakeObjectStateRepository();
    reapplyJobs = new FakeReapplyJobRepository();
    stores = new FakeStoreRepository();
    broker = new FakeBroker();
    const { rev: _rev, ...record } = aStoredSettings();
    await settings.putByOwner(owner, record);
    // Five contacts of the application in two portals, and one of another application.
    const save = (tenant: Tenant, ids: string[]) =>
      objectStates.saveMany(
        { tenant, storeId: 'default', objectType: 'CONTACT' },
        ids.map((id) => ({ externalObjectId: id, state: emptyObjectState(), expectedRev: null })),
      );
    await save(app, ['a', 'b', 'c']);
    await save({ ...app, portalId: app.portalId + 1 }, ['d', 'e']);
    await save(anAppTenant(), ['other']);
  });

  const useCaseWith = (options: Partial<ReapplyOptions> = {}) =>
    new ReapplySettingsUseCase(
      asRepositories({ settings, objectStates, reapplyJobs, stores }),
      broker,
      recordingLogger().logger,
      { pageSize: 2, pagesPerChunk: 10, changesPerMessage: 100, ...options },
      () => 1_000,
    );
  const event = (settingsRev = 1): SettingsChangedMessage => ({ kind: 'settings-changed', owner, settingsRev, objectTypes: ['CONTACT', 'DEAL'] });
  const republished = () =>
    broker.bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`).flatMap((message) => message.changes.map((change) => change.externalObjectId));

  it.each([
    { pagesPerChunk: 10, chunks: 0 },
    { pagesPerChunk: 1, chunks: 3 },
  ])(
    'when the settings change and a chunk takes $pagesPerChunk pages, then every object of the application is re-mapped once, in $chunks follow-up chunks',
    async ({ pagesPerChunk, chunks }) => {
      const useCase = useCaseWith({ pagesPerChunk });
      broker.subscribe<ReapplyChunkMessage>(TOPICS.reapplyChunk, (chunk) => useCase.continue(chunk));

      await useCase.start(event());
      await broker.deliverAll();

      expect(republished().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(broker.bodiesTo(TOPICS.reapplyChunk)).toHaveLength(chunks);
      expect(await reapplyJobs.latest(owner)).toMatchObject({ status: 'completed', objectsProcessed: 5, finishedAt: 1_000 });
    },
  );

  it('when a store was deleted since its objects were received, then its objects are not re-mapped and those of stores that exist are', async () => {
    const saveIn = (storeId: string, ids: string[]) =>
      objectStates.saveMany(
        { tenant: app, storeId, objectType: 'CONTACT' },
        ids.map((id) => ({ externalObjectId: id, state: emptyObjectState(), expectedRev: null })),
      );
    await saveIn('eu', ['eu-1', 'eu-2']);
    await saveIn('us', ['us-1']);
    await stores.upsert(app, { id: 'us', label: 'US' });
    await stores.upsert(app, { id: 'eu', label: 'EU' });
    await stores.remove(app, 'eu');
    const useCase = useCaseWith();
    broker.subscribe<ReapplyChunkMessage>(TOPICS.reapplyChunk, (chunk) => useCase.continue(chunk));

    await useCase.start(event());
    await broker.deliverAll();

    expect(republished().sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'us-1']);
    expect(await reapplyJobs.latest(owner)).toMatchObject({ status: 'completed' });
  });

  it('when one object alone is more than the broker takes, then the job still completes: that object goes without its state and with a blocking error', async () => {
    const large = mergeMessage(
      emptyObjectState(),
      { externalObjectId: 'b', action: 'UPSERT', changedAt: 5, properties: { email: 'b@example.com', firstname: 'B'.repeat(5_000) } },
      0,
    ).state;
    const [b] = (await objectStates.findMany({ tenant: app, storeId: 'default', objectType: 'CONTACT' }, ['b'])).values();
    await objectStates.saveMany({ tenant: app, storeId: 'default', objectType: 'CONTACT' }, [{ externalObjectId: 'b', state: large, expectedRev: b!.rev }]);
    broker = new FakeBroker({ maxMessageBytes: 4_000 });

    await useCaseWith().start(event());
    await broker.deliverAll();

    const changes = broker.bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`).flatMap((message) => message.changes);
    expect(changes.map((change) => change.externalObjectId).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(changes.find((change) => change.externalObjectId === 'b')).toMatchObject({
      properties: {},
      problems: [{ type: 'UNKNOWN_ERROR', blocking: true, details: expect.stringContaining('more than the 4000 bytes the broker takes') }],
    });
    expect(await reapplyJobs.latest(owner)).toMatchObject({ status: 'completed', objectsProcessed: 5 });
  });

  const remappedAt = () =>
    broker
      .bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`)
      .flatMap((message) => message.changes.map((change) => `${change.externalObjectId}@${change.settingsRev}`))
      .sort();

  it('when the settings changed again without a re-apply of their own before the job ran, then the job re-maps with the newest settings', async () => {
    const { rev: _rev, ...record } = aStoredSettings();
    await settings.putByOwner(owner, record); // revision 2: the same mappings, no job of its own

    await useCaseWith().start(event(1));

    expect(remappedAt()).toEqual(['a@2', 'b@2', 'c@2', 'd@2', 'e@2']);
    expect(await reapplyJobs.latest(owner)).toMatchObject({ settingsRev: 1, status: 'completed' });
  });

  it.each([
    ['disabled', async () => void (await settings.putByOwner(owner, { ...aStoredSettings(), enabled: false }))],
    ['deleted', async () => void (await settings.remove(owner))],
  ])('when the settings were %s before the job ran, then it stops and re-maps nothing', async (_case, change) => {
    await change();

    await useCaseWith().start(event(1));

    expect(broker.published).toEqual([]);
    expect(await reapplyJobs.latest(owner)).toMatchObject({ settingsRev: 1, status: 'superseded' });
  });

  it("when another type's mappings change while a job is half way, then the newer job re-maps the rest of the older one's type too", async () => {
    const useCase = useCaseWith({ pagesPerChunk: 1 });
    broker.subscribe<ReapplyChunkMessage>(TOPICS.reapplyChunk, (chunk) => useCase.continue(chunk));
    await useCase.start({ ...event(1), objectTypes: ['CONTACT'] }); // one page of two contacts, then a chunk waits
    const { rev: _rev, ...record } = aStoredSettings();
    const { rev } = await settings.putByOwner(owner, record);

    await useCase.start({ ...event(rev), objectTypes: ['DEAL'] });
    await broker.deliverAll();

    expect(remappedAt().filter((one) => one.endsWith(`@${rev}`))).toEqual(['a', 'b', 'c', 'd', 'e'].map((id) => `${id}@${rev}`));
    expect(await reapplyJobs.latest(owner)).toMatchObject({ settingsRev: rev, objectTypes: ['CONTACT', 'DEAL'], status: 'completed' });
  });

  it('when the settings change event is delivered again after the job completed, then nothing is re-mapped twice', async () => {
    const useCase = useCaseWith();
    await useCase.start(event());
    broker.clear();

    await useCase.start(event());

    expect(broker.published).toEqual([]);
  });

  it('when the settings are removed and made again, then the new ones re-map every object at a revision above the removed ones', async () => {
    const useCase = useCaseWith();
    await useCase.start(event(1));
    await settings.remove(owner);
    const { rev: _rev, ...record } = aStoredSettings();
    const { rev } = await settings.putByOwner(owner, record);
    broker.clear();

    await useCase.start(event(rev));

    expect(rev).toBeGreaterThan(1);
    expect(republished().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(
      broker.bodiesTo<MappedChangesMessage>(`${TOPICS.mappedChanges}.*`).flatMap((message) => message.changes.map((change) => change.settingsRev)),
    ).toEqual(Array(5).fill(rev));
    expect(await reapplyJobs.latest(owner)).toMatchObject({ settingsRev: rev, status: 'completed', objectsProcessed: 5 });
  });

  it('when a chunk of a job superseded meanwhile arrives, then it stops without re-mapping', async () => {
    const useCase = useCaseWith({ pagesPerChunk: 1 });
    await useCase.start(event());
    const [chunk] = broker.bodiesTo<ReapplyChunkMessage>(TOPICS.reapplyChunk);
    await reapplyJobs.start(owner, 2, ['CONTACT'], 2_000);
    broker.clear();

    await useCase.continue(chunk);

    expect(broker.published).toEqual([]);
  });
});
