import type { Tenant } from '@ecomm-sync/contracts';
import { asRepositories, aSyncBatch, aTenant, FakeSyncErrorRepository, recordingLogger } from '@ecomm-sync/testing';
import { RecordSetAsideUseCase } from './record-set-aside.use-case';

describe('RecordSetAsideUseCase (mapper)', () => {
  let tenant: Tenant;
  let syncErrors: FakeSyncErrorRepository;
  let log: ReturnType<typeof recordingLogger>;
  let useCase: RecordSetAsideUseCase;

  beforeEach(() => {
    tenant = aTenant();
    syncErrors = new FakeSyncErrorRepository();
    log = recordingLogger();
    useCase = new RecordSetAsideUseCase(asRepositories({ syncErrors }), log.logger, () => 9_000);
  });

  const errorsOf = (externalObjectId: string) => syncErrors.listForObject({ ...tenant, storeId: 'eu', objectType: 'DEAL', externalObjectId }, true);

  it('when a batch is set aside, then each object has one open UNKNOWN_ERROR naming the queue, the attempts and the redrive, at its change time or the receipt time', async () => {
    const batch = aSyncBatch({
      tenant,
      storeId: 'eu',
      objectType: 'DEAL',
      receivedAt: 5_000,
      messages: [
        { externalObjectId: 'd-1', action: 'UPSERT', changedAt: 1_234, properties: { dealname: 'x' } },
        { externalObjectId: 'd-2', action: 'DELETE', changedAt: null, properties: {} },
      ],
    });

    await useCase.execute(batch, 3, new Error('mongo down'));
    await useCase.execute(batch, 3, new Error('mongo down'));

    expect(log.entries).toEqual([]);
    const [first] = await errorsOf('d-1');
    const [second] = await errorsOf('d-2');
    expect([await errorsOf('d-1'), await errorsOf('d-2')].map((errors) => errors.length)).toEqual([1, 1]);
    expect(first).toMatchObject({ type: 'UNKNOWN_ERROR', status: 'OPEN', changedAt: 1_234, erroredAt: 9_000 });
    expect(first.details).toMatch(/UPSERT.*DEAL.*d-1.*3 times.*npm run redrive -- mapper\.sync-batches/);
    expect(second).toMatchObject({ type: 'UNKNOWN_ERROR', status: 'OPEN', changedAt: 5_000 });
    expect(second.details).toMatch(/DELETE.*DEAL.*d-2/);
  });

  it('when a batch is set aside, then the object’s other open errors stay open beside its error: nothing of it was processed', async () => {
    await syncErrors.record({ tenant, storeId: 'eu', objectType: 'DEAL' }, [
      { externalObjectId: 'd-1', rev: 4, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS', details: 'not an e-mail address', changedAt: 1_000, erroredAt: 2_000 },
    ]);

    await useCase.execute(
      aSyncBatch({ tenant, storeId: 'eu', objectType: 'DEAL', messages: [{ externalObjectId: 'd-1', action: 'UPSERT', changedAt: 3_000, properties: {} }] }),
      5,
      new Error('mongo down'),
    );

    expect((await errorsOf('d-1')).map((error) => [error.type, error.status])).toEqual([
      ['UNKNOWN_ERROR', 'OPEN'],
      ['INVALID_EMAIL_ADDRESS', 'OPEN'],
    ]);
  });

  it.each([
    ['no object at all', { hello: 'world' }],
    ['a batch without its tenant', { ...aSyncBatch(), tenant: undefined }],
  ])('when the dead-lettered body is %s, then nothing is recorded and the malformed message is logged', async (_case, body) => {
    const record = jest.spyOn(syncErrors, 'record');

    await useCase.execute(body, 1, new Error('bad'));

    expect(record).not.toHaveBeenCalled();

    expect(log.entries).toEqual([
      expect.objectContaining({ level: 'error', message: 'a malformed message was dead-lettered', queue: 'mapper.sync-batches', error: 'bad' }),
    ]);
  });
});
