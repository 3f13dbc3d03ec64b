import { OBJECT_TYPES, type SettingsChangedMessage, TOPICS } from '@ecomm-sync/contracts';
import { settingsOwner, type StoredSettings } from '@ecomm-sync/data-access';
import type { SettingsRecord } from '@ecomm-sync/domain';
import {
  anAppTenant,
  aPropertyMapping,
  asRepositories,
  aSyncSettings,
  FakeBroker,
  FakeReapplyJobRepository,
  FakeSettingsRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { ManageSettingsUseCase } from './manage-settings.use-case';

const aRecord = (overrides: Partial<SettingsRecord> = {}): SettingsRecord => ({ ...aSyncSettings(), importOnInstall: false, webhookUri: null, ...overrides });
const withContactMappings = (record: SettingsRecord, extra: number) => ({
  ...record,
  mappings: {
    ...record.mappings,
    CONTACT: [
      ...record.mappings.CONTACT!,
      ...Array.from({ length: extra }, (_, i) => aPropertyMapping({ externalPropertyName: `extra${i}`, crmPropertyName: `extra${i}` })),
    ],
  },
});

describe('ManageSettingsUseCase', () => {
  let settings: FakeSettingsRepository;
  let reapplyJobs: FakeReapplyJobRepository;
  let broker: FakeBroker;
  let useCase: ManageSettingsUseCase;
  let owner: string;

  beforeEach(() => {
    settings = new FakeSettingsRepository();
    reapplyJobs = new FakeReapplyJobRepository();
    broker = new FakeBroker();
    useCase = new ManageSettingsUseCase(asRepositories({ settings, reapplyJobs }), broker, recordingLogger().logger);
    owner = settingsOwner(anAppTenant());
  });

  const reapplyRequests = () => broker.bodiesTo<SettingsChangedMessage>(TOPICS.settingsChanged);

  describe('put', () => {
    const enabled = aRecord();
    it.each<{ before: string; after: string; current: SettingsRecord | null; next: SettingsRecord; reapplied: string[] }>([
      { before: 'no settings', after: 'enabled ones', current: null, next: enabled, reapplied: [...OBJECT_TYPES] },
      { before: 'no settings', after: 'disabled ones', current: null, next: aRecord({ enabled: false }), reapplied: [] },
      { before: 'enabled settings', after: 'the same', current: enabled, next: enabled, reapplied: [] },
      {
        before: 'enabled settings',
        after: 'a new import address',
        current: enabled,
        next: aRecord({ webhookUri: 'https://shop.example.com/import' }),
        reapplied: [],
      },
      { before: 'enabled settings', after: 'one more CONTACT mapping', current: enabled, next: withContactMappings(enabled, 1), reapplied: ['CONTACT'] },
      { before: 'enabled settings', after: 'disabled ones', current: enabled, next: aRecord({ enabled: false }), reapplied: [] },
      { before: 'disabled settings', after: 'enabled ones', current: aRecord({ enabled: false }), next: enabled, reapplied: [...OBJECT_TYPES] },
    ])(
      'when the owner has $before and $after are put, then they are stored and the re-apply requested is of $reapplied',
      async ({ current, next, reapplied }) => {
        if (current) await settings.putByOwner(owner, current);

        const stored = await useCase.put(owner, () => next, 'v2');

        expect(await settings.getByOwner(owner)).toEqual({ ...stored, mappings: expect.any(Object) });
        expect(reapplyRequests()).toEqual(reapplied.length === 0 ? [] : [{ kind: 'settings-changed', owner, settingsRev: stored.rev, objectTypes: reapplied }]);
      },
    );

    it('when the settings are put, then the builder is given the current ones', async () => {
      const { reapplyPending: _pending, ...current } = await settings.putByOwner(owner, aRecord({ importOnInstall: true }));
      const build = jest.fn((found: StoredSettings | null) => aRecord({ importOnInstall: found!.importOnInstall }));

      const stored = await useCase.put(owner, build, 'v2');

      expect(build).toHaveBeenCalledWith(current);
      expect(stored.importOnInstall).toBe(true);
    });

    it.each([
      ['a property mapped twice', aRecord({ mappings: { CONTACT: [aPropertyMapping(), aPropertyMapping()] } }), /maps the property "email" twice/],
      ['enabled settings without a deal stage', aRecord({ mappings: { CONTACT: [aPropertyMapping()] } }), /must map a property to dealstage/],
    ])('when the new settings have %s, then they are refused with 400 and nothing is stored or requested', async (_case, record, message) => {
      await expect(useCase.put(owner, () => record, 'v2')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(message) });

      expect(await settings.getByOwner(owner)).toBeNull();
      expect(broker.published).toEqual([]);
    });

    it('when another put pauses the settings between this put’s read and its write, then this one writes over the paused ones and re-applies everything', async () => {
      await settings.putByOwner(owner, enabled);
      const read = settings.getByOwner.bind(settings);
      let overtaken = false;
      jest.spyOn(settings, 'getByOwner').mockImplementation(async (of) => {
        const found = await read(of);
        // The other request writes after this one read: the settings it read are gone.
        if (!overtaken) {
          overtaken = true;
          await settings.putByOwner(owner, aRecord({ enabled: false }));
        }
        return found;
      });

      const stored = await useCase.put(owner, () => enabled, 'v2');

      expect(stored).toMatchObject({ enabled: true, rev: 3 });
      expect(reapplyRequests()).toEqual([{ kind: 'settings-changed', owner, settingsRev: 3, objectTypes: [...OBJECT_TYPES] }]);
    });

    it('when every try of a put is overtaken by another write, then it answers 409 saying to send it again', async () => {
      await settings.putByOwner(owner, enabled);
      const read = settings.getByOwner.bind(settings);
      jest.spyOn(settings, 'getByOwner').mockImplementation(async (of) => {
        const found = await read(of);
        await settings.putByOwner(owner, enabled);
        return found;
      });

      await expect(useCase.put(owner, () => enabled, 'v2')).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/send it again/) });
    });

    it('when the re-apply cannot be queued, then the answer is 503 and the settings are saved', async () => {
      broker.failNextPublishes(1);

      await expect(useCase.put(owner, () => aRecord(), 'v2')).rejects.toMatchObject({
        status: 503,
        message: expect.stringMatching(/send the same request again/),
      });

      expect(await settings.getByOwner(owner)).toMatchObject({ enabled: true, rev: 1 });
      expect(reapplyRequests()).toEqual([]);
    });

    it('when the same request is sent again after a 503, then the re-apply is requested', async () => {
      broker.failNextPublishes(1);
      await expect(useCase.put(owner, () => aRecord(), 'v2')).rejects.toMatchObject({ status: 503 });

      await useCase.put(owner, () => aRecord(), 'v2');

      expect(reapplyRequests()).toEqual([expect.objectContaining({ objectTypes: [...OBJECT_TYPES] })]);
    });
  });

  describe('forceReapply', () => {
    it('when the settings are enabled, then their revision grows and every object type is re-applied at it', async () => {
      await settings.putByOwner(owner, aRecord());

      const result = await useCase.forceReapply(owner);

      expect(result).toEqual({ settingsRev: 2, objectTypes: [...OBJECT_TYPES] });
      expect(reapplyRequests()).toEqual([{ kind: 'settings-changed', owner, settingsRev: 2, objectTypes: [...OBJECT_TYPES] }]);
    });

    it.each([
      { has: 'no settings', record: null, status: 409 },
      { has: 'disabled settings', record: aRecord({ enabled: false }), status: 409 },
    ])('when the owner has $has, then it is refused with $status', async ({ record, status }) => {
      if (record) await settings.putByOwner(owner, record);

      await expect(useCase.forceReapply(owner)).rejects.toMatchObject({ status });

      expect(broker.published).toEqual([]);
    });
  });

  describe('the v1 import trigger', () => {
    it('when the owner has settings, then the import address is set and the rest kept at their revision, with no re-apply', async () => {
      const { rev } = await settings.putByOwner(owner, aRecord({ importOnInstall: true }));

      expect(await useCase.putImportTriggerUri(owner, 'https://shop.example.com/v1-import')).toBe('https://shop.example.com/v1-import');

      expect(await useCase.find(owner)).toMatchObject({ enabled: true, importOnInstall: true, webhookUri: 'https://shop.example.com/v1-import', rev });
      expect(await useCase.importTriggerUri(owner)).toBe('https://shop.example.com/v1-import');
      expect(broker.published).toEqual([]);
    });

    it('when the owner has no settings, then the import address is set without making any, and GET shows it on the defaults', async () => {
      await useCase.putImportTriggerUri(owner, 'https://shop.example.com/v1-import');

      expect(await useCase.find(owner)).toBeNull(); // sync messages still find no settings (NO_SYNC_SETTINGS)
      expect(await useCase.importTriggerUri(owner)).toBe('https://shop.example.com/v1-import');
      expect(await useCase.view(owner)).toEqual({ enabled: false, importOnInstall: false, webhookUri: 'https://shop.example.com/v1-import', mappings: {} });
      expect(broker.published).toEqual([]);
    });

    it('when the owner has no settings, then the import address reads null', async () => {
      expect(await useCase.importTriggerUri(owner)).toBeNull();
    });

    it('when the import address is set while a v1 settings PUT is under way, then neither undoes the other', async () => {
      await settings.putByOwner(owner, aRecord());
      const next = withContactMappings(aRecord({ enabled: false }), 1);

      await useCase.put(
        owner,
        (current) => {
          void useCase.putImportTriggerUri(owner, 'https://shop.example.com/v1-import'); // lands between the PUT's read and its write
          return { ...next, webhookUri: current?.webhookUri ?? null };
        },
        'v1',
      );

      expect(await useCase.find(owner)).toMatchObject({ mappings: { CONTACT: next.mappings.CONTACT }, webhookUri: 'https://shop.example.com/v1-import' });
    });
  });

  describe('get, remove and the re-apply status', () => {
    it.each([
      ['v1', 'https://shop.example.com/import'],
      ['v2', null],
    ] as const)('when settings are removed through %s, then none are found and the import address reads %s', async (version, address) => {
      await settings.putByOwner(owner, aRecord({ enabled: true, webhookUri: 'https://shop.example.com/import' }));

      await useCase.remove(owner, version);

      expect(await useCase.find(owner)).toBeNull();
      expect(await useCase.importTriggerUri(owner)).toBe(address);
      expect(await useCase.view(owner)).toEqual({ enabled: false, importOnInstall: false, webhookUri: address, mappings: {} });
    });

    it('when only an import address was kept and the v2 settings are deleted, then the address goes too', async () => {
      await useCase.putImportTriggerUri(owner, 'https://shop.example.com/import');

      await useCase.remove(owner, 'v2');

      expect(await useCase.importTriggerUri(owner)).toBeNull();
    });

    it('when settings are put again after a v1 DELETE, then a v1 PUT keeps the address and a v2 PUT sets its own', async () => {
      await settings.putByOwner(owner, aRecord({ webhookUri: 'https://shop.example.com/import' }));
      await useCase.remove(owner, 'v1');

      await useCase.put(owner, () => aRecord({ enabled: false, webhookUri: null }), 'v1');
      expect(await useCase.find(owner)).toMatchObject({ webhookUri: 'https://shop.example.com/import' });
      await useCase.put(owner, () => aRecord({ webhookUri: 'https://shop.example.com/v2' }), 'v2');
      expect(await useCase.importTriggerUri(owner)).toBe('https://shop.example.com/v2');
    });

    it('when re-applies ran, then the status is that of the newest; before any, it answers 404', async () => {
      await expect(useCase.reapplyStatus(owner)).rejects.toMatchObject({ status: 404 });
      await reapplyJobs.start(owner, 1, ['CONTACT'], 10);
      await reapplyJobs.start(owner, 2, ['DEAL'], 20);

      expect(await useCase.reapplyStatus(owner)).toMatchObject({ settingsRev: 2, status: 'running' });
    });
  });
});
