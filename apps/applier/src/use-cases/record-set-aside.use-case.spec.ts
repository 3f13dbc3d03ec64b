import type { Tenant } from '@ecomm-sync/contracts';
import { aMappedChange, aMappedChangesMessage, asRepositories, aTenant, FakeSyncErrorRepository, recordingLogger } from '@ecomm-sync/testing';
import { RecordSetAsideUseCase } from './record-set-aside.use-case';

describe('RecordSetAsideUseCase (applier)', () => {
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

  const errorsOf = (externalObjectId: string) => syncErrors.listForObject({ ...tenant, storeId: 'eu', objectType: 'PRODUCT', externalObjectId }, true);

  it('when mapped changes are set aside, then each object has one open UNKNOWN_ERROR at its revision, naming the queue, the attempts and the redrive', async () => {
    const message = aMappedChangesMessage({
      tenant,
      storeId: 'eu',
      objectType: 'PRODUCT',
      changes: [aMappedChange({ externalObjectId: 'p-1', rev: 4, changedAt: 1_234 }), aMappedChange({ externalObjectId: 'p-2', action: 'DELETE' })],
    });

    await useCase.execute(message, 5, new Error('CRM answered 400'));
    await useCase.execute(message, 5, new Error('CRM answered 400'));

    expect(log.entries).toEqual([]);
    const [first, second] = [await errorsOf('p-1'), await errorsOf('p-2')];
    expect([first.length, second.length]).toEqual([1, 1]);
    expect(first[0]).toMatchObject({ type: 'UNKNOWN_ERROR', status: 'OPEN', changedAt: 1_234, erroredAt: 9_000 });
    expect(first[0].details).toMatch(/UPSERT.*PRODUCT.*p-1.*5 times.*npm run redrive -- applier\.mapped-changes/);
    expect(second[0].details).toMatch(/DELETE.*PRODUCT.*p-2/);
  });

  it('when a newer revision of the object is set aside later, then only its error stays open', async () => {
    await useCase.execute(
      aMappedChangesMessage({ tenant, storeId: 'eu', objectType: 'PRODUCT', changes: [aMappedChange({ externalObjectId: 'p-1', rev: 1 })] }),
      5,
      new Error('x'),
    );
    await useCase.execute(
      aMappedChangesMessage({ tenant, storeId: 'eu', objectType: 'PRODUCT', changes: [aMappedChange({ externalObjectId: 'p-1', rev: 2 })] }),
      5,
      new Error('x'),
    );

    expect((await errorsOf('p-1')).map((error) => error.status).sort()).toEqual(['OPEN', 'RESOLVED']);
  });

  it('when the dead-lettered body is not a message of mapped changes, then it is logged as malformed and nothing is recorded', async () => {
    const record = jest.spyOn(syncErrors, 'record');

    await useCase.execute({ tenant, changes: 'none' }, 1, new Error('bad'));

    expect(record).not.toHaveBeenCalled();
    expect(log.entries).toEqual([
      expect.objectContaining({ level: 'error', message: 'a malformed message was dead-lettered', queue: 'applier.mapped-changes', error: 'bad' }),
    ]);
  });
});
