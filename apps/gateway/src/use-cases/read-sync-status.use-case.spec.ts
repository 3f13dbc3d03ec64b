import type { Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState, type CrmWait } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';
import {
  aMappedChange,
  anAppTenant,
  anObjectSync,
  asRepositories,
  FakeCrmWaitRepository,
  FakeObjectStateRepository,
  FakeObjectSyncRepository,
  FakeParkedChangeRepository,
  FakeSyncErrorRepository,
} from '@ecomm-sync/testing';
import { ReadSyncStatusUseCase } from './read-sync-status.use-case';

const NOW = 1_750_000_000_000;

describe('ReadSyncStatusUseCase', () => {
  let tenant: Tenant;
  let objectSyncs: FakeObjectSyncRepository;
  let objectStates: FakeObjectStateRepository;
  let syncErrors: FakeSyncErrorRepository;
  let crmWaits: FakeCrmWaitRepository;
  let parkedChanges: FakeParkedChangeRepository;
  let useCase: ReadSyncStatusUseCase;

  beforeEach(() => {
    tenant = anAppTenant();
    objectSyncs = new FakeObjectSyncRepository();
    objectStates = new FakeObjectStateRepository();
    syncErrors = new FakeSyncErrorRepository();
    crmWaits = new FakeCrmWaitRepository();
    parkedChanges = new FakeParkedChangeRepository();
    useCase = new ReadSyncStatusUseCase(asRepositories({ objectSyncs, objectStates, syncErrors, crmWaits, parkedChanges }));
  });

  const received = (storeId: string, externalObjectId: string) =>
    objectStates.insertNew({ tenant, storeId, objectType: 'CONTACT' }, [{ externalObjectId, state: emptyObjectState() }]);
  const anError = (externalObjectId: string, overrides: { type?: 'INVALID_EMAIL_ADDRESS' | 'UNKNOWN_ERROR'; rev?: number } = {}) => ({
    externalObjectId,
    rev: overrides.rev ?? 1,
    settingsRev: 1,
    type: overrides.type ?? ('INVALID_EMAIL_ADDRESS' as const),
    details: `${externalObjectId} is wrong`,
    changedAt: NOW - 100,
    erroredAt: NOW - 50,
  });

  describe('object status', () => {
    it('when an object was applied, then its v2 status has its CRM id, when it was processed, and its open errors', async () => {
      objectSyncs.put({ tenant, storeId: 'eu', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42, lastProcessedAt: NOW }));
      await syncErrors.record({ tenant, storeId: 'eu', objectType: 'CONTACT' }, [anError('c1')]);

      expect(await useCase.v2Status({ tenant, storeId: 'eu', objectType: 'CONTACT' }, 'c1')).toEqual({
        storeId: 'eu',
        objectType: 'CONTACT',
        externalObjectId: 'c1',
        crmId: 42,
        lastProcessedAt: NOW,
        errors: [
          {
            portalId: tenant.portalId,
            storeId: 'eu',
            objectType: 'CONTACT',
            externalObjectId: 'c1',
            changedAt: NOW - 100,
            erroredAt: NOW - 50,
            type: 'INVALID_EMAIL_ADDRESS',
            details: 'c1 is wrong',
            status: 'OPEN',
          },
        ],
      });
    });

    it('when an object was deleted, then its status says crmId null, in v2 and v1 alike', async () => {
      objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42, archived: true }));
      expect((await useCase.v2Status({ tenant, storeId: 'default', objectType: 'CONTACT' }, 'c1')).crmId).toBeNull();
      expect(await useCase.v1Status(tenant, 'CONTACT', 'c1')).toMatchObject({ crmId: null });
    });

    it('when an object was received but not processed yet, then its status is empty, not an error', async () => {
      await received('default', 'c1');
      expect(await useCase.v2Status({ tenant, storeId: 'default', objectType: 'CONTACT' }, 'c1')).toEqual({
        storeId: 'default',
        objectType: 'CONTACT',
        externalObjectId: 'c1',
        crmId: null,
        lastProcessedAt: null,
        errors: [],
      });
    });

    it('when an object was never received in that store, then a 404 says so and that processing is asynchronous', async () => {
      await received('eu', 'c1');
      const read = useCase.v2Status({ tenant, storeId: 'default', objectType: 'CONTACT' }, 'c1');
      await expect(read).rejects.toBeInstanceOf(AppError);
      await expect(read).rejects.toMatchObject({
        status: 404,
        message: expect.stringMatching(/No CONTACT "c1" has been received in store "default".*asynchronously/),
      });
    });

    it('when an object was accepted but its batch was set aside before it was merged, then its status answers with the open error instead of a 404', async () => {
      // No state and no sync record: the batch never merged (dead-lettered); the set-aside error is all there is.
      await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('c1', { type: 'UNKNOWN_ERROR' })]);

      const status = await useCase.v2Status({ tenant, storeId: 'default', objectType: 'CONTACT' }, 'c1');

      expect(status).toMatchObject({ externalObjectId: 'c1', crmId: null, lastProcessedAt: null });
      expect(status.errors.map((error) => error.type)).toEqual(['UNKNOWN_ERROR']);
      expect(await useCase.v1Status(tenant, 'CONTACT', 'c1')).toMatchObject({ numErrors: 1, crmId: null });
    });

    it('when another tenant applied an object of that id, then this tenant does not see it', async () => {
      objectSyncs.put(
        { tenant: { portalId: tenant.portalId, appId: null }, storeId: 'default', objectType: 'CONTACT' },
        anObjectSync({ externalObjectId: 'c1' }),
      );
      await expect(useCase.v2Status({ tenant, storeId: 'default', objectType: 'CONTACT' }, 'c1')).rejects.toMatchObject({ status: 404 });
    });

    it('when the v1 status is read, then it is the default store with the number of open errors and the CRM id', async () => {
      objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 7, lastProcessedAt: NOW }));
      await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('c1'), anError('c1', { type: 'UNKNOWN_ERROR' })]);
      await syncErrors.record({ tenant, storeId: 'eu', objectType: 'CONTACT' }, [anError('c1')]);

      expect(await useCase.v1Status(tenant, 'CONTACT', 'c1')).toEqual({
        objectType: 'CONTACT',
        externalObjectId: 'c1',
        lastProcessedAt: NOW,
        numErrors: 2,
        crmId: 7,
      });
    });

    it('when errors of an object were resolved, then only the listing that asks for them shows them', async () => {
      await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('c1')]);
      await syncErrors.resolve({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['c1'], NOW);
      const key = { ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c1' };

      const page = { offset: 0, limit: 200 };
      expect(await useCase.objectErrors(key, false, page)).toEqual([]);
      expect((await useCase.objectErrors(key, true, page)).map((error) => error.status)).toEqual(['RESOLVED']);
    });
  });

  describe('CRM health', () => {
    const wait = (overrides: Partial<CrmWait> = {}): CrmWait => ({
      reason: 'rate-limited',
      since: NOW - 10_000,
      until: NOW + 30_000,
      tries: 2,
      lastAnswer: '429 slow down',
      ...overrides,
    });
    const park = (count: number) =>
      parkedChanges.park(
        { tenant, storeId: 'default', objectType: 'CONTACT' },
        Array.from({ length: count }, () => ({ change: aMappedChange(), reapply: false })),
        NOW,
      );

    it('when the portal has no wait, then its CRM is ok, with what is parked', async () => {
      expect(await useCase.crmHealth(tenant.portalId, NOW)).toEqual({
        portalId: tenant.portalId,
        state: 'ok',
        message: 'the CRM takes changes',
        since: null,
        until: null,
        lastAnswer: null,
        tries: 0,
        parkedChanges: 0,
      });
    });

    it.each<[string, Partial<CrmWait>, RegExp]>([
      ['rate limited', { reason: 'rate-limited' }, /^rate limited until /],
      ['out of its daily cap', { reason: 'daily-cap' }, /^daily request cap reached; paused until /],
      ['unreachable', { reason: 'unreachable' }, /^CRM unreachable since /],
    ])(
      'when the portal waits because it is %s, then its health says why and until when, with the last answer and the parked count',
      async (_case, overrides, message) => {
        await crmWaits.set(tenant.portalId, wait(overrides));
        await park(3);

        const health = await useCase.crmHealth(tenant.portalId, NOW);

        expect(health).toEqual({
          portalId: tenant.portalId,
          state: overrides.reason,
          message: expect.stringMatching(message),
          since: NOW - 10_000,
          until: NOW + 30_000,
          lastAnswer: '429 slow down',
          tries: 2,
          parkedChanges: 3,
        });
        expect(health.message).toContain('429 slow down');
      },
    );

    it('when the wait has ended but changes are still parked, then its health reads as resuming', async () => {
      await crmWaits.set(tenant.portalId, wait({ until: NOW - 1 }));
      await park(2);
      expect((await useCase.crmHealth(tenant.portalId, NOW)).message).toBe('resuming: 2 parked changes are being applied');
    });
  });
});
