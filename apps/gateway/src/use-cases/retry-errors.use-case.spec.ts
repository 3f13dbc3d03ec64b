import type { RefreshObjectsMessage } from '@ecomm-sync/contracts';
import type { ErrorQuery, ObjectKey, SyncError, SyncErrorRepository } from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import { asRepositories, FakeObjectStateRepository, FakeStoreRepository } from '@ecomm-sync/testing';
import { RetryErrorsUseCase } from './retry-errors.use-case';

const anError = (over: Partial<SyncError>): SyncError => ({
  portalId: 1,
  appId: null,
  storeId: 'default',
  objectType: 'CONTACT',
  externalObjectId: 'c1',
  type: 'INVALID_EMAIL_ADDRESS',
  details: 'x',
  changedAt: 1,
  erroredAt: 1,
  status: 'OPEN',
  ...over,
});

/** Lists from an array as the repository does: filtered, paged; and one object's errors. */
const errorsOf = (all: SyncError[]) =>
  ({
    list: async (query: ErrorQuery) => {
      const hits = all.filter(
        (e) =>
          e.status === 'OPEN' &&
          (!query.errorType || e.type === query.errorType) &&
          (query.portalId === undefined || e.portalId === query.portalId) &&
          (query.setAside === undefined || Boolean(e.setAsideBatchId) === query.setAside),
      );
      return { errors: hits.slice(query.offset, query.offset + query.limit), hasMore: hits.length > query.offset + query.limit };
    },
    listForObject: async (key: ObjectKey, includeResolved: boolean) =>
      all.filter(
        (e) =>
          (includeResolved || e.status === 'OPEN') &&
          e.portalId === key.portalId &&
          (e.appId ?? null) === key.appId &&
          e.storeId === key.storeId &&
          e.objectType === key.objectType &&
          e.externalObjectId === key.externalObjectId,
      ),
  }) as unknown as SyncErrorRepository;
const NONE = { notStored: 0, inDeletedStores: 0, setAside: 0, setAsideMore: false };

describe('RetryErrorsUseCase', () => {
  const sent: RefreshObjectsMessage[] = [];
  const refresher = { refresh: async (message: RefreshObjectsMessage) => void sent.push(message) };
  let objectStates: FakeObjectStateRepository;
  let stores: FakeStoreRepository;
  /** States of portal 1's own contacts (the errors' tenant and type) in a store. */
  const storeStates = (storeId: string, ids: string[]) =>
    objectStates.saveMany(
      { tenant: { portalId: 1, appId: null }, storeId, objectType: 'CONTACT' },
      ids.map((externalObjectId) => ({ externalObjectId, state: emptyObjectState(), expectedRev: null })),
    );
  beforeEach(async () => {
    sent.length = 0;
    objectStates = new FakeObjectStateRepository();
    // The stores the objects are in (a store deleted since sends nothing).
    stores = new FakeStoreRepository();
    for (const appId of ['a', null]) for (const id of ['s', 'eu', 'other']) await stores.upsert({ portalId: 1, appId }, { id, label: id });
    await objectStates.saveMany({ tenant: { portalId: 1, appId: 'a' }, storeId: 's', objectType: 'DEAL' }, [
      { externalObjectId: 'd1', state: emptyObjectState(), expectedRev: null },
    ]);
  });

  it('when one object in scope is retried, then its stored state is refreshed', async () => {
    const useCase = new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf([]), objectStates, stores }), refresher);
    await expect(useCase.retryObject({ portalId: 1 }, { portalId: 1, appId: 'a', storeId: 's', objectType: 'DEAL', externalObjectId: 'd1' })).resolves.toEqual({
      objectsQueued: 1,
      more: false,
      ...NONE,
    });
    expect(sent).toEqual([{ kind: 'refresh-objects', tenant: { portalId: 1, appId: 'a' }, storeId: 's', objectType: 'DEAL', externalObjectIds: ['d1'] }]);
  });

  it.each([
    ['an id never received', { externalObjectId: 'typo' }],
    ['an application that sent nothing', { appId: '' }],
    ['another store', { storeId: 'other' }],
  ])('when an object of %s is retried, then it answers 404 saying there is no stored state, and sends nothing', async (_name, over) => {
    const useCase = new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf([]), objectStates, stores }), refresher);
    const object = { portalId: 1, appId: 'a' as string | null, storeId: 's', objectType: 'DEAL' as const, externalObjectId: 'd1', ...over };
    await expect(useCase.retryObject({ portalId: 1 }, object)).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('has no stored state to re-apply: nothing was received for it, or its batch was set aside'),
    });
    expect(sent).toEqual([]);
  });

  it.each([
    ['another portal', { portalId: 2 }],
    ['another application', { portalId: 1, appId: 'b' }],
    ['direct mode for an application token', { portalId: 1, appId: 'a' }],
  ])('when an object of %s is retried, then it answers 404 and sends nothing', async (_name, scope) => {
    const useCase = new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf([]), objectStates, stores }), refresher);
    await expect(useCase.retryObject(scope, { portalId: 1, appId: null, storeId: 's', objectType: 'DEAL', externalObjectId: 'd1' })).rejects.toMatchObject({
      status: 404,
    });
    expect(sent).toEqual([]);
  });

  it('when every object with an error type is retried, then each object is refreshed once, grouped per tenant, store and type', async () => {
    const errors = [
      anError({ externalObjectId: 'c1' }),
      anError({ externalObjectId: 'c1', erroredAt: 2 }),
      anError({ externalObjectId: 'c2' }),
      anError({ externalObjectId: 'c3', storeId: 'eu' }),
      anError({ externalObjectId: 'c4', type: 'UNKNOWN_ERROR' }),
      anError({ externalObjectId: 'c5', status: 'RESOLVED' }),
    ];
    await storeStates('default', ['c1', 'c2']);
    await storeStates('eu', ['c3']);
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 3, more: false, ...NONE });
    expect(sent.map((m) => [m.storeId, m.externalObjectIds])).toEqual([
      ['default', ['c1', 'c2']],
      ['eu', ['c3']],
    ]);
  });

  it('when some objects with the error have no stored state, then only the others are sent, and those are counted apart', async () => {
    const errors = ['c1', 'set-aside', 'c2', 'never-merged'].map((externalObjectId) => anError({ externalObjectId }));
    await storeStates('default', ['c1', 'c2']);
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 2, more: false, ...NONE, notStored: 2 });
    expect(sent.map((m) => m.externalObjectIds)).toEqual([['c1', 'c2']]);
  });

  it("when an object's error waits for a batch set aside, then it is not sent and counted apart, unless it has another error a re-apply clears", async () => {
    const errors = [
      anError({ externalObjectId: 'c1', type: 'UNKNOWN_ERROR', setAsideBatchId: 'b1' }),
      anError({ externalObjectId: 'c2', type: 'UNKNOWN_ERROR', setAsideBatchId: 'b2' }),
      anError({ externalObjectId: 'c2', type: 'UNKNOWN_ERROR' }),
    ];
    await storeStates('default', ['c1', 'c2']);
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'UNKNOWN_ERROR' },
    );
    expect(result).toEqual({ objectsQueued: 1, more: false, ...NONE, setAside: 1 });
    expect(sent.map((m) => m.externalObjectIds)).toEqual([['c2']]);
  });

  it('when more errors wait for set-aside batches than one retry sends, then they do not take the places of objects it can send', async () => {
    const waiting = Array.from({ length: 5 }, (_, i) => anError({ externalObjectId: `w${i}`, erroredAt: 9, setAsideBatchId: `b${i}` }));
    const errors = [...waiting, anError({ externalObjectId: 'c1' }), anError({ externalObjectId: 'c2' })];
    await storeStates('default', ['c1', 'c2']);
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher, 2).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 2, more: false, ...NONE, setAside: 5 });
  });

  it('when no object with the error has a stored state, then nothing is sent', async () => {
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf([anError({})]), objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 0, more: false, ...NONE, notStored: 1 });
    expect(sent).toEqual([]);
  });

  it('when more objects have the error than one retry takes, then it sends the most it may and says more are left', async () => {
    const errors = Array.from({ length: 450 }, (_, i) => anError({ externalObjectId: `c${i}` }));
    await storeStates(
      'default',
      errors.map((error) => error.externalObjectId),
    );
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher, 300).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 300, more: true, ...NONE });
    expect(sent.flatMap((m) => m.externalObjectIds)).toHaveLength(300);
  });

  it('when more errors wait for set-aside batches than the pages read hold, then the objects a retry can clear behind them are still sent, and the count says it is a lower bound', async () => {
    // More than 50 pages of 200: read among the others, they would fill every page read.
    const waiting = Array.from({ length: 10_100 }, (_, i) => anError({ externalObjectId: `w${i}`, erroredAt: 9, setAsideBatchId: `b${i}` }));
    await storeStates('default', ['c1']);
    const syncErrors = errorsOf([...waiting, anError({ externalObjectId: 'c1', erroredAt: 1 })]);
    const list = jest.spyOn(syncErrors, 'list');
    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors, objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );
    expect(result).toEqual({ objectsQueued: 1, more: false, notStored: 0, inDeletedStores: 0, setAside: 1_000, setAsideMore: true });
    expect(sent.map((m) => m.externalObjectIds)).toEqual([['c1']]);
    expect(list.mock.calls.map(([query]) => query.setAside)).toEqual([false, true, true, true, true, true]);
  });

  it('when one object whose open errors all wait for set-aside batches is retried, then 409 says a retry cannot clear them, and nothing is sent', async () => {
    await storeStates('default', ['c1']);
    const errors = [anError({ externalObjectId: 'c1', type: 'UNKNOWN_ERROR', setAsideBatchId: 'b1' }), anError({ externalObjectId: 'c1', status: 'RESOLVED' })];
    const useCase = new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher);
    const object = { portalId: 1, appId: null, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c1' };
    await expect(useCase.retryObject({ portalId: 1 }, object)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('its open errors wait for a batch set aside before it was merged'),
    });
    expect(sent).toEqual([]);
  });

  it('when an object of a store deleted since is retried, then 409 says the store was deleted and nothing is sent', async () => {
    await stores.remove({ portalId: 1, appId: 'a' }, 's');
    const useCase = new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf([]), objectStates, stores }), refresher);

    await expect(
      useCase.retryObject({ portalId: 1 }, { portalId: 1, appId: 'a', storeId: 's', objectType: 'DEAL', externalObjectId: 'd1' }),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/in store s, which was deleted.*define it again/),
    });
    expect(sent).toEqual([]);
  });

  it('when a whole type is retried and some errors are in a store deleted since, then those are counted apart and not sent', async () => {
    await storeStates('eu', ['c1', 'c2']);
    await storeStates('default', ['c3']);
    await stores.remove({ portalId: 1, appId: null }, 'eu');
    const errors = [
      anError({ storeId: 'eu', externalObjectId: 'c1' }),
      anError({ storeId: 'eu', externalObjectId: 'c2' }),
      anError({ externalObjectId: 'c3' }),
    ];

    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );

    expect(result).toEqual({ objectsQueued: 1, more: false, ...NONE, inDeletedStores: 2 });
    expect(sent.flatMap((message) => message.externalObjectIds)).toEqual(['c3']);
  });

  it('when the errors of deleted stores come first, then they take no place among the objects one retry sends, and set-aside ones of them are counted as deleted', async () => {
    await storeStates('default', ['live']);
    await stores.remove({ portalId: 1, appId: null }, 'eu');
    const errors = [
      anError({ storeId: 'eu', externalObjectId: 'g1' }),
      anError({ storeId: 'eu', externalObjectId: 'g2' }),
      anError({ storeId: 'eu', externalObjectId: 'g3', setAsideBatchId: 'b-1' }),
      anError({ externalObjectId: 'live' }),
    ];

    const result = await new RetryErrorsUseCase(asRepositories({ syncErrors: errorsOf(errors), objectStates, stores }), refresher, 1).retryType(
      { portalId: 1 },
      { errorType: 'INVALID_EMAIL_ADDRESS' },
    );

    expect(result).toEqual({ objectsQueued: 1, more: false, ...NONE, inDeletedStores: 3 });
    expect(sent.flatMap((message) => message.externalObjectIds)).toEqual(['live']);
  });
});
