import type { SyncBatchMessage, Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import {
  anAppTenant,
  anObjectSync,
  asRepositories,
  aStoredSettings,
  aSyncBatch,
  FakeAccountRepository,
  FakeObjectStateRepository,
  FakeObjectSyncRepository,
  FakeRawMessageRepository,
  FakeSettingsRepository,
  FakeSyncErrorRepository,
  FakeWaitingObjectRepository,
  aMappedChange,
} from '@ecomm-sync/testing';
import { builtinObjectLink, InspectObjectUseCase } from './inspect-object.use-case';

const NOW = 1_750_000_000_000;
const CRM = 'http://crm.example.com/';

describe('InspectObjectUseCase', () => {
  let tenant: Tenant & { appId: string };
  let rawMessages: FakeRawMessageRepository;
  let objectStates: FakeObjectStateRepository;
  let objectSyncs: FakeObjectSyncRepository;
  let syncErrors: FakeSyncErrorRepository;
  let settings: FakeSettingsRepository;
  let accounts: FakeAccountRepository;
  let waitingObjects: FakeWaitingObjectRepository;
  let useCase: InspectObjectUseCase;

  beforeEach(async () => {
    tenant = anAppTenant();
    rawMessages = new FakeRawMessageRepository();
    objectStates = new FakeObjectStateRepository();
    objectSyncs = new FakeObjectSyncRepository();
    syncErrors = new FakeSyncErrorRepository();
    settings = new FakeSettingsRepository();
    accounts = new FakeAccountRepository();
    waitingObjects = new FakeWaitingObjectRepository();
    useCase = new InspectObjectUseCase(
      asRepositories({ rawMessages, objectStates, objectSyncs, syncErrors, settings, accounts, waitingObjects }),
      { objectLink: async (_portalId, objectType, crmId) => builtinObjectLink(CRM, objectType, crmId) },
      () => NOW,
    );
    const { rev: _rev, ...stored } = aStoredSettings();
    await settings.put(tenant, stored);
  });

  const scope = () => ({ portalId: tenant.portalId, appId: tenant.appId });
  const asked = (externalObjectId = 'c1') => ({ storeId: 'default', objectType: 'CONTACT' as const, externalObjectId });
  const message = (properties: Record<string, string>, changedAt: number): SyncBatchMessage['messages'][number] => ({
    externalObjectId: 'c1',
    action: 'UPSERT',
    changedAt,
    properties,
  });
  /** c1 received twice and merged, as the gateway and the mapper leave it. */
  const receivedTwice = async () => {
    await rawMessages.append(aSyncBatch({ tenant, receivedAt: NOW - 20, messages: [message({ email: 'old@example.com' }, NOW - 25)] }));
    await rawMessages.append(aSyncBatch({ tenant, receivedAt: NOW - 10, messages: [message({ email: 'ann@example.com', firstname: 'Ann' }, NOW - 15)] }));
    const state = mergeMessage(
      emptyObjectState(),
      { externalObjectId: 'c1', action: 'UPSERT', changedAt: NOW - 15, properties: { email: 'ann@example.com', firstname: 'Ann' } },
      NOW - 10,
    ).state;
    await objectStates.insertNew({ tenant, storeId: 'default', objectType: 'CONTACT' }, [{ externalObjectId: 'c1', state }]);
  };
  const anError = (type: 'INVALID_ASSOCIATION_PROPERTY' | 'INVALID_EMAIL_ADDRESS', rev = 1) => ({
    externalObjectId: 'c1',
    rev,
    settingsRev: 1,
    type,
    details: `${type} details`,
    changedAt: NOW - 15,
    erroredAt: NOW - 5 + rev,
  });

  it('when an object was received, merged and applied, then the inspector shows its messages newest first, its state, its mapping and its CRM link', async () => {
    await receivedTwice();
    objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42, lastProcessedAt: NOW - 5 }));

    const inspection = await useCase.inspect(scope(), asked());

    expect(inspection).toMatchObject({
      portalId: tenant.portalId,
      appId: tenant.appId,
      storeId: 'default',
      objectType: 'CONTACT',
      externalObjectId: 'c1',
      status: 'applied',
      moreMessages: false,
      errors: [],
    });
    expect(inspection.messages.map((received) => received.receivedAt)).toEqual([NOW - 10, NOW - 20]);
    expect(inspection.merged).toMatchObject({ properties: { email: { value: 'ann@example.com' } }, live: true });
    expect(inspection.mapped).toMatchObject({ properties: { email: 'ann@example.com', firstname: 'Ann' }, problems: [] });
    expect(inspection.crm).toEqual({ id: 42, archived: false, lastProcessedAt: NOW - 5, link: `${CRM}crm/v3/objects/contacts/42` });
  });

  it.each([
    ['was received but not processed yet', async () => undefined, 'not-processed'],
    [
      'failed with an open error',
      async () => syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('INVALID_EMAIL_ADDRESS')]),
      'failed',
    ],
    [
      'waits for objects it associates with',
      async () => {
        await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('INVALID_ASSOCIATION_PROPERTY')]);
        await waitingObjects.wait(
          { tenant, storeId: 'default', objectType: 'CONTACT' },
          [{ change: aMappedChange({ externalObjectId: 'c1' }), waitingFor: ['DEAL:d1'] }],
          NOW,
          60_000,
        );
      },
      'waiting',
    ],
    [
      'was applied and waits only to associate a contact later',
      async () => {
        await objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42 }));
        const later = [{ change: aMappedChange({ externalObjectId: 'c1' }), waitingFor: ['DEAL:d1'] }];
        await waitingObjects.wait({ tenant, storeId: 'default', objectType: 'CONTACT' }, later, NOW, 60_000, { reapply: true });
      },
      'applied',
    ],
    [
      'failed with an association error and waits for nothing (it names two deals)',
      async () => syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('INVALID_ASSOCIATION_PROPERTY')]),
      'failed',
    ],
    [
      'was deleted in the CRM',
      async () => objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42, archived: true })),
      'archived',
    ],
  ] as [string, () => Promise<unknown>, string][])('when an object %s, then its status says so', async (_case, arrange, status) => {
    await receivedTwice();
    await arrange();
    expect((await useCase.inspect(scope(), asked())).status).toBe(status);
  });

  it('when an object was deleted in the CRM, then its CRM id shows without a link', async () => {
    await receivedTwice();
    objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 42, archived: true }));
    expect((await useCase.inspect(scope(), asked())).crm).toMatchObject({ id: 42, archived: true, link: null });
  });

  it('when an object has resolved and open errors, then its history lists both, newest first, with what to do', async () => {
    await receivedTwice();
    await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('INVALID_EMAIL_ADDRESS', 1)]);
    await syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError('INVALID_ASSOCIATION_PROPERTY', 2)]);

    const { errors } = await useCase.inspect(scope(), asked());

    expect(errors.map((error) => [error.type, error.status])).toEqual([
      ['INVALID_ASSOCIATION_PROPERTY', 'OPEN'],
      ['INVALID_EMAIL_ADDRESS', 'RESOLVED'],
    ]);
    expect(errors.every((error) => error.whatToDo.length > 0)).toBe(true);
  });

  it('when nothing was received for the object, then a 404 says to check the store and the id', async () => {
    await expect(useCase.inspect(scope(), asked('nobody'))).rejects.toMatchObject({
      status: 404,
      message: 'Nothing was received for CONTACT nobody in store default; check the store and the id as the store sends it',
    });
  });

  it("when a portal key asks for an application that is not installed in it, then a 404 tells nothing of the application's objects", async () => {
    await receivedTwice();
    await expect(useCase.inspect({ portalId: tenant.portalId }, { ...asked(), appId: tenant.appId })).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/is not installed in portal/),
    });
    await accounts.install(tenant.portalId, tenant.appId, NOW);
    expect((await useCase.inspect({ portalId: tenant.portalId }, { ...asked(), appId: tenant.appId })).externalObjectId).toBe('c1');
  });
});
