import type { Tenant, V2SettingsInput } from '@ecomm-sync/contracts';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import {
  anAppTenant,
  anObjectSync,
  asRepositories,
  FakeAccountRepository,
  FakeCrm,
  FakeObjectStateRepository,
  FakeObjectSyncRepository,
} from '@ecomm-sync/testing';
import { MappingDraftUseCase } from './mapping-draft.use-case';

const NOW = 1_750_000_000_000;
const DRAFT: V2SettingsInput = {
  enabled: true,
  mappings: {
    CONTACT: {
      properties: [
        { externalPropertyName: 'mail', crmPropertyName: 'email' },
        { externalPropertyName: 'first', crmPropertyName: 'firstname' },
      ],
    },
    DEAL: { properties: [{ externalPropertyName: 'stage', crmPropertyName: 'dealstage' }] },
  },
};

describe('MappingDraftUseCase', () => {
  let tenant: Tenant & { appId: string };
  let objectStates: FakeObjectStateRepository;
  let objectSyncs: FakeObjectSyncRepository;
  let accounts: FakeAccountRepository;
  let crm: FakeCrm;
  let useCase: MappingDraftUseCase;

  beforeEach(async () => {
    tenant = anAppTenant();
    objectStates = new FakeObjectStateRepository();
    objectSyncs = new FakeObjectSyncRepository();
    accounts = new FakeAccountRepository();
    crm = new FakeCrm({
      properties: {
        CONTACT: [
          { name: 'firstname', label: 'First name', type: 'string' },
          { name: 'email', label: 'E-mail', type: 'string' },
        ],
      },
    });
    useCase = new MappingDraftUseCase(
      asRepositories({ objectStates, objectSyncs, accounts }),
      { crmOf: async (portalId) => (portalId === tenant.portalId ? crm : null) },
      () => NOW,
    );
    await accounts.install(tenant.portalId, tenant.appId, NOW);
  });

  /** A developer key of the tenant's application, asking for its install in the tenant's portal. */
  const developerScope = () => ({ scope: { appId: tenant.appId }, asked: { portalId: tenant.portalId } });
  const stored = (externalObjectId: string, properties: Record<string, string>) =>
    objectStates.insertNew({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
      {
        externalObjectId,
        state: mergeMessage(emptyObjectState(), { externalObjectId, action: 'UPSERT', changedAt: NOW - 1_000, properties }, NOW - 1_000).state,
      },
    ]);

  describe('check', () => {
    it.each<[string, V2SettingsInput, string | null]>([
      ['an enabled draft with the required mappings', DRAFT, null],
      [
        'an enabled draft without a contact e-mail',
        { enabled: true, mappings: { DEAL: DRAFT.mappings!.DEAL } },
        'Settings cannot be enabled: mappings.CONTACT must map a property to email',
      ],
      ['a disabled draft without mappings', { enabled: false }, null],
      [
        'a draft mapping one property twice',
        {
          mappings: {
            CONTACT: {
              properties: [
                { externalPropertyName: 'a', crmPropertyName: 'x' },
                { externalPropertyName: 'a', crmPropertyName: 'y' },
              ],
            },
          },
        },
        'mappings.CONTACT maps the property "a" twice; keep one mapping per property',
      ],
    ])("when the console checks %s, then it gets the settings endpoint's answer", (_case, draft, problem) => {
      expect(useCase.check(draft)).toEqual({ ok: problem === null, problem });
    });
  });

  describe('CRM properties', () => {
    it("when the console asks for a type's properties, then the portal's CRM ones come in name order", async () => {
      const { scope, asked } = developerScope();
      expect(await useCase.crmProperties(scope, asked, 'CONTACT')).toEqual({
        objectType: 'CONTACT',
        results: [
          { name: 'email', label: 'E-mail', type: 'string' },
          { name: 'firstname', label: 'First name', type: 'string' },
        ],
      });
    });

    it.each([
      ['a developer key names no portal', { appId: 'app' }, {}, 400, /portalId is required/],
      ['a developer key names a portal that did not install its application', { appId: 'other-app' }, { portalId: 1 }, 404, /is not installed in portal 1/],
    ])('when %s, then the read is refused with what to do', async (_case, scope, asked, status, message) => {
      await expect(useCase.crmProperties(scope, asked, 'CONTACT')).rejects.toMatchObject({ status, message: expect.stringMatching(message) });
    });

    it('when the portal is not known, then a 404 names it', async () => {
      await expect(useCase.crmProperties({ portalId: tenant.portalId + 1, appId: null }, {}, 'CONTACT')).rejects.toMatchObject({
        status: 404,
        message: `No portal ${tenant.portalId + 1}`,
      });
    });
  });

  describe('dry run', () => {
    it('when a typed message is dry-run with the draft, then it shows a create with the mapped properties and saves nothing', async () => {
      const { scope, asked } = developerScope();
      const result = await useCase.dryRun(scope, asked, {
        settings: DRAFT,
        storeId: 'default',
        objectType: 'CONTACT',
        message: { externalObjectId: 'typed', properties: { mail: 'ann@example.com', first: 'Ann' } },
      });

      expect(result).toEqual({
        externalObjectId: 'typed',
        operation: 'CREATE',
        properties: { email: 'ann@example.com', firstname: 'Ann' },
        associations: {},
        associationTargets: [],
        problems: [],
        settingsProblem: null,
      });
      expect(await objectStates.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['typed'])).toEqual(new Map());
      expect(crm.live('CONTACT')).toEqual([]);
    });

    it('when a stored object linked to the CRM is dry-run, then it shows an update of its stored state', async () => {
      await stored('c1', { mail: 'bob@example.com', first: 'Bob' });
      objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'c1', crmId: 9 }));
      const { scope, asked } = developerScope();

      const result = await useCase.dryRun(scope, asked, { settings: DRAFT, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'c1' });

      expect(result).toMatchObject({ externalObjectId: 'c1', operation: 'UPDATE', properties: { email: 'bob@example.com', firstname: 'Bob' } });
    });

    it('when the draft maps to a property the CRM lacks, then the dry run shows the problem the object would get', async () => {
      const { scope, asked } = developerScope();
      const draft: V2SettingsInput = {
        ...DRAFT,
        mappings: {
          ...DRAFT.mappings,
          CONTACT: { properties: [...DRAFT.mappings!.CONTACT!.properties!, { externalPropertyName: 'shoe', crmPropertyName: 'shoe_size' }] },
        },
      };

      const result = await useCase.dryRun(scope, asked, {
        settings: draft,
        storeId: 'default',
        objectType: 'CONTACT',
        message: { externalObjectId: 'typed', properties: { mail: 'ann@example.com', shoe: '44' } },
      });

      expect(result.problems.map((problem) => problem.type)).toEqual(['NO_PROPERTIES_DEFINED']);
      expect(result.properties).toEqual({ email: 'ann@example.com' });
    });

    it('when the draft maps a value outside a CRM enumeration’s options, then the dry run says the CRM would refuse the object', async () => {
      const { scope, asked } = developerScope();
      crm = new FakeCrm({
        properties: {
          CONTACT: [
            { name: 'email', label: 'E-mail', type: 'string' },
            { name: 'tier', label: 'Tier', type: 'enumeration', fieldType: 'select', groupName: 'g', options: [{ label: 'Gold', value: 'gold' }] },
          ],
        },
      });
      const draft: V2SettingsInput = {
        ...DRAFT,
        mappings: {
          ...DRAFT.mappings,
          CONTACT: {
            properties: [
              { externalPropertyName: 'mail', crmPropertyName: 'email' },
              { externalPropertyName: 'level', crmPropertyName: 'tier' },
            ],
          },
        },
      };
      const dryRun = (level: string) =>
        useCase.dryRun(scope, asked, {
          settings: draft,
          storeId: 'default',
          objectType: 'CONTACT',
          message: { externalObjectId: 'typed', properties: { mail: 'ann@example.com', level } },
        });

      expect((await dryRun('Gold')).problems).toEqual([
        expect.objectContaining({ type: 'INVALID_ENUM_PROPERTY', blocking: true, details: expect.stringContaining('[tier: Gold]') }),
      ]);
      expect((await dryRun('gold')).problems).toEqual([]);
    });

    it('when the object is not stored, then a 404 suggests typing a message instead', async () => {
      const { scope, asked } = developerScope();
      await expect(
        useCase.dryRun(scope, asked, { settings: DRAFT, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'missing' }),
      ).rejects.toMatchObject({
        status: 404,
        message: 'Nothing is stored for CONTACT missing in store default; type a message to dry-run instead',
      });
    });
  });
});
