import type { InboundMessage, MappedChangesMessage, ObjectScope, SyncBatchMessage, Tenant } from '@ecomm-sync/contracts';
import type { StateWrite } from '@ecomm-sync/data-access';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import {
  asRepositories,
  aStoredSettings,
  aSyncBatch,
  aTenant,
  FakeBroker,
  FakeObjectStateRepository,
  FakeRawMessageRepository,
  FakeSettingsRepository,
  FakeSyncErrorRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { ProcessSyncBatchUseCase } from './process-sync-batch.use-case';
import { RecordSetAsideUseCase } from './record-set-aside.use-case';

/** Another mapper replica that writes the same object just before this one's first write. */
class RacedObjectStates extends FakeObjectStateRepository {
  races = 0;
  override async saveMany(scope: ObjectScope, writes: readonly StateWrite[]) {
    if (this.races-- > 0) {
      const [write] = writes;
      const rival = mergeMessage(
        emptyObjectState(),
        { externalObjectId: write.externalObjectId, action: 'UPSERT', changedAt: 5, properties: { firstname: 'Rival' } },
        0,
      ).state;
      const current = (await this.findMany(scope, [write.externalObjectId])).get(write.externalObjectId);
      await super.saveMany(scope, [{ externalObjectId: write.externalObjectId, state: rival, expectedRev: current?.rev ?? null }]);
    }
    return super.saveMany(scope, writes);
  }
}

describe('ProcessSyncBatchUseCase', () => {
  let tenant: Tenant;
  let rawMessages: FakeRawMessageRepository;
  let objectStates: RacedObjectStates;
  let settings: FakeSettingsRepository;
  let broker: FakeBroker;
  let syncErrors: FakeSyncErrorRepository;
  let useCase: ProcessSyncBatchUseCase;

  beforeEach(async () => {
    tenant = aTenant();
    rawMessages = new FakeRawMessageRepository();
    objectStates = new RacedObjectStates();
    settings = new FakeSettingsRepository();
    broker = new FakeBroker();
    syncErrors = new FakeSyncErrorRepository();
    useCase = new ProcessSyncBatchUseCase(asRepositories({ rawMessages, objectStates, settings, syncErrors }), broker, () => 7_000);
    const { rev: _rev, ...record } = aStoredSettings();
    await settings.put(tenant, record);
  });

  const aBatch = (messages: SyncBatchMessage['messages']) => aSyncBatch({ tenant, objectType: 'CONTACT', messages, receivedAt: 1_000 });
  const contact = (externalObjectId: string, changedAt: number, properties: Record<string, string>): InboundMessage => ({
    externalObjectId,
    action: 'UPSERT',
    changedAt,
    properties,
  });
  const published = () => broker.bodiesTo<MappedChangesMessage>('changes.mapped.CONTACT');

  describe('a batch set aside before', () => {
    const setAside = async (batch: SyncBatchMessage) => {
      await new RecordSetAsideUseCase(asRepositories({ syncErrors }), recordingLogger().logger, () => 5_000).execute(batch, 5, new Error('mongo down'));
    };
    const statusOf = async (externalObjectId: string) =>
      (await syncErrors.listForObject({ ...tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId }, true)).map((error) => error.status);

    it('when it is merged on a later try, then the errors that said it was set aside are resolved', async () => {
      const batch = aBatch([contact('c-1', 900, { email: 'a@example.com' }), contact('c-2', 900, { email: 'b@example.com' })]);
      await setAside(batch);

      await useCase.execute(batch, { triedBefore: true });

      expect([await statusOf('c-1'), await statusOf('c-2')]).toEqual([['RESOLVED'], ['RESOLVED']]);
    });

    it('when another batch of its objects is merged, or it is merged on a first delivery, then its errors stay open', async () => {
      const setAsideBatch = aBatch([contact('c-1', 900, { email: 'a@example.com' })]);
      await setAside(setAsideBatch);
      const resolveSetAside = jest.spyOn(syncErrors, 'resolveSetAside');

      await useCase.execute(aBatch([contact('c-1', 950, { firstname: 'Ann' })]), { triedBefore: true });
      await useCase.execute(aBatch([contact('c-1', 960, { firstname: 'Anna' })]));

      expect(await statusOf('c-1')).toEqual(['OPEN']);
      expect(resolveSetAside).toHaveBeenCalledTimes(1); // a first delivery does not look
    });
  });

  it('when the mapped states are more than the broker takes in one message, then they go as several, every object once', async () => {
    const small = new FakeBroker({ maxMessageBytes: 4_000 });
    const splitting = new ProcessSyncBatchUseCase(asRepositories({ rawMessages, objectStates, settings, syncErrors }), small, () => 7_000);
    const ids = Array.from({ length: 12 }, (_, n) => `c-${n}`);

    await splitting.execute(aBatch(ids.map((id) => contact(id, 10, { email: `${id}@example.com`, firstname: 'A'.repeat(1_000) }))));

    const messages = small.bodiesTo<MappedChangesMessage>('changes.mapped.CONTACT');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((message) => JSON.stringify(message).length <= 4_000)).toBe(true);
    expect(messages.flatMap((message) => message.changes.map((change) => change.externalObjectId)).sort()).toEqual([...ids].sort());
  });

  it('when one object alone is more than the broker takes, then it goes without its state and with a blocking error, and the others go whole', async () => {
    const small = new FakeBroker({ maxMessageBytes: 4_000 });
    const splitting = new ProcessSyncBatchUseCase(asRepositories({ rawMessages, objectStates, settings, syncErrors }), small, () => 7_000);

    await splitting.execute(
      aBatch([
        contact('c-1', 10, { email: 'a@example.com' }),
        contact('c-2', 10, { email: 'b@example.com', firstname: 'A'.repeat(5_000) }),
        contact('c-3', 10, { email: 'c@example.com' }),
      ]),
    );

    const changes = small.bodiesTo<MappedChangesMessage>('changes.mapped.CONTACT').flatMap((message) => message.changes);
    expect(changes.map((change) => change.externalObjectId).sort()).toEqual(['c-1', 'c-2', 'c-3']);
    const oversized = changes.find((change) => change.externalObjectId === 'c-2')!;
    expect(oversized.properties).toEqual({});
    expect(oversized.problems).toEqual([
      expect.objectContaining({ type: 'UNKNOWN_ERROR', blocking: true, details: expect.stringContaining('more than the 4000 bytes the broker takes') }),
    ]);
    expect(changes.find((change) => change.externalObjectId === 'c-1')!.properties).toMatchObject({ email: 'a@example.com' });
    expect(changes.find((change) => change.externalObjectId === 'c-3')!.properties).toMatchObject({ email: 'c@example.com' });
  });

  it('when a batch arrives, then its messages are kept, merged per object, and the mapped states published at their stored revisions', async () => {
    const batch = aBatch([
      contact('c-1', 10, { email: 'a@example.com' }),
      contact('c-2', 10, { email: 'b@example.com' }),
      contact('c-1', 20, { firstname: 'Ann' }),
    ]);

    await useCase.execute(batch);

    expect(await rawMessages.countForBatch(batch.batchId)).toBe(3);
    const stored = await objectStates.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['c-1', 'c-2']);
    const [message] = published();
    expect(message).toMatchObject({ tenant, storeId: 'default', objectType: 'CONTACT' });
    expect(
      message.changes.map(({ externalObjectId, rev, action, changedAt, settingsRev }) => ({ externalObjectId, rev, action, changedAt, settingsRev })),
    ).toEqual([
      { externalObjectId: 'c-1', rev: stored.get('c-1')!.rev, action: 'UPSERT', changedAt: 20, settingsRev: 1 },
      { externalObjectId: 'c-2', rev: stored.get('c-2')!.rev, action: 'UPSERT', changedAt: 10, settingsRev: 1 },
    ]);
    expect(message.changes[0].properties).toMatchObject({ email: 'a@example.com', firstname: 'Ann' });
  });

  it('when the same batch is delivered again, then nothing is stored twice and the same changes are published again', async () => {
    const batch = aBatch([contact('c-1', 10, { email: 'a@example.com' })]);
    await useCase.execute(batch);

    await useCase.execute(batch);

    expect(await rawMessages.countForBatch(batch.batchId)).toBe(1);
    const [first, second] = published();
    expect(second).toEqual(first);
  });

  it.each([
    {
      order: 'in order',
      sent: [
        [10, 'old@example.com'],
        [20, 'new@example.com'],
      ] as const,
    },
    {
      order: 'out of order',
      sent: [
        [20, 'new@example.com'],
        [10, 'old@example.com'],
      ] as const,
    },
  ])('when two batches change a property $order, then the value of the newer change is kept', async ({ sent }) => {
    for (const [changedAt, email] of sent) await useCase.execute(aBatch([contact('c-1', changedAt, { email })]));

    const [, latest] = published();
    expect(latest.changes[0].properties.email).toBe('new@example.com');
  });

  it('when another replica writes the object between the read and the write, then the batch merges onto that write and both changes are kept', async () => {
    objectStates.races = 1;

    await useCase.execute(aBatch([contact('c-1', 10, { email: 'a@example.com' })]));

    const [message] = published();
    expect(message.changes[0].properties).toMatchObject({ email: 'a@example.com', firstname: 'Rival' });
    expect(message.changes[0].rev).toBe((await objectStates.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['c-1'])).get('c-1')!.rev);
  });

  it('when other writers win every round, then the batch fails to be retried and publishes nothing', async () => {
    objectStates.races = 100;

    await expect(useCase.execute(aBatch([contact('c-1', 10, { email: 'a@example.com' })]))).rejects.toThrow(/kept changing under concurrent writers/);

    expect(broker.published).toEqual([]);
  });

  it('when the broker does not confirm, then the batch fails to be retried, and its states are stored so the retry publishes them', async () => {
    const batch = aBatch([contact('c-1', 10, { email: 'a@example.com' })]);
    broker.failNextPublishes(1);

    await expect(useCase.execute(batch)).rejects.toThrow(/publishing/);
    await useCase.execute(batch);

    expect(published()).toHaveLength(1);
    expect(published()[0].changes[0].properties.email).toBe('a@example.com');
  });
});
