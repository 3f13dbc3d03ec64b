import type { Tenant } from '@ecomm-sync/contracts';
import type { EcommerceInstall, Portal, StoredSettings } from '@ecomm-sync/data-access';
import { aPortal, aStoredSettings, aTenant } from '@ecomm-sync/testing';
import { TenantAccess } from './tenant-access';

const installed = (installCompleted: boolean): EcommerceInstall => ({
  installCompleted,
  dashboardInstalled: installCompleted,
  workflowsEnabled: installCompleted,
  installedAt: null,
  uninstalledAt: null,
});

/** The reads TenantAccess makes, answering what the test stored, and counting the reads. */
function stored(portal: Portal | null, install: EcommerceInstall, settings: StoredSettings | null = aStoredSettings()) {
  const state = { portal, install, settings, portalReads: 0, installReads: 0, settingsReads: 0 };
  const repositories = {
    portals: { findById: async () => (state.portalReads++, state.portal && { ...state.portal }) },
    ecommerceInstalls: { find: async () => (state.installReads++, { ...state.install }) },
    settings: { get: async () => (state.settingsReads++, state.settings && { ...state.settings }) },
  };
  return { state, repositories };
}

describe('TenantAccess (applier)', () => {
  let now: number;
  let tenant: Tenant;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000_000;
    tenant = aTenant();
  });

  it.each([
    { case: 'an active portal with its install done', portal: { active: true }, done: true, expected: 'portal' },
    { case: 'a disabled portal', portal: { active: false }, done: true, expected: 'INACTIVE_PORTAL' },
    { case: 'an unknown portal', portal: null, done: true, expected: 'INACTIVE_PORTAL' },
    { case: 'an active portal whose install is not done', portal: { active: true }, done: false, expected: 'PORTAL_NOT_SYNC_ENABLED' },
    {
      case: 'its install done and its settings disabled',
      portal: { active: true },
      done: true,
      settings: aStoredSettings({ enabled: false }),
      expected: 'SETTINGS_NOT_ENABLED',
    },
    { case: 'its install done and its settings deleted', portal: { active: true }, done: true, settings: null, expected: 'NO_SYNC_SETTINGS' },
  ])('when the tenant has $case, then check answers $expected', async ({ portal, done, settings, expected }) => {
    const { repositories } = stored(
      portal && aPortal({ portalId: tenant.portalId, ...portal }),
      installed(done),
      settings === undefined ? aStoredSettings() : settings,
    );

    const access = await new TenantAccess(repositories, clock).check(tenant);

    expect('portal' in access ? 'portal' : access.held.type).toBe(expected);
  });

  it('when a positive answer is younger than 5 s, then it is reused; at 5 s both are read again', async () => {
    const { state, repositories } = stored(aPortal({ portalId: tenant.portalId }), installed(true));
    const access = new TenantAccess(repositories, clock);

    await access.check(tenant);
    now += 4_999;
    await access.check(tenant);
    expect([state.portalReads, state.installReads]).toEqual([1, 1]);

    now += 1;
    await access.check(tenant);
    expect([state.portalReads, state.installReads]).toEqual([2, 2]);
  });

  it('when a portal is enabled or an install completes, then the next check sees it: negative answers are not kept', async () => {
    const { state, repositories } = stored(aPortal({ portalId: tenant.portalId, active: false }), installed(false));
    const access = new TenantAccess(repositories, clock);

    expect(await access.check(tenant)).toMatchObject({ held: { type: 'INACTIVE_PORTAL' } });
    state.portal = { ...state.portal!, active: true };
    expect(await access.check(tenant)).toMatchObject({ held: { type: 'PORTAL_NOT_SYNC_ENABLED' } });
    state.install = installed(true);
    expect(await access.check(tenant)).toEqual({ portal: state.portal });
    expect([state.portalReads, state.installReads]).toEqual([2, 2]); // the active portal was kept from the second check
  });

  it('when the settings are disabled, then the check holds the changes within 5 s and lets them through once they are enabled again', async () => {
    const { state, repositories } = stored(aPortal({ portalId: tenant.portalId }), installed(true));
    const access = new TenantAccess(repositories, clock);
    expect(await access.check(tenant)).toHaveProperty('portal');

    state.settings = aStoredSettings({ enabled: false });
    now += 5_000;
    expect(await access.check(tenant)).toMatchObject({
      held: { type: 'SETTINGS_NOT_ENABLED', reason: expect.stringMatching(/disabled; enabling them re-applies/) },
    });
    state.settings = aStoredSettings();
    expect(await access.check(tenant)).toHaveProperty('portal'); // a negative answer is not kept
  });

  it('when forget is called, then a cached positive answer is read again (a portal was disabled meanwhile)', async () => {
    const { state, repositories } = stored(aPortal({ portalId: tenant.portalId }), installed(true));
    const access = new TenantAccess(repositories, clock);
    await access.check(tenant);

    state.portal = { ...state.portal!, active: false };
    expect(await access.check(tenant)).toHaveProperty('portal');
    access.forget();

    expect(await access.check(tenant)).toMatchObject({ held: { type: 'INACTIVE_PORTAL' } });
  });

  it.each([
    { portal: true, reads: [3, 3] },
    { portal: false, reads: [2, 3] },
  ])(
    "when one tenant is forgotten (its portal too: $portal), then its install is read again, its portal when named, and another portal's tenant stays cached",
    async ({ portal, reads }) => {
      const { state, repositories } = stored(aPortal({ portalId: tenant.portalId }), installed(true));
      const other = aTenant();
      const access = new TenantAccess(repositories, clock);
      await access.check(tenant);
      await access.check(other);

      access.forgetTenant(tenant, { portal });
      await access.check(tenant);
      await access.check(other);

      expect([state.portalReads, state.installReads]).toEqual(reads);
    },
  );

  it("when two applications of one portal are checked, then each one's install is read on its own", async () => {
    const { state, repositories } = stored(aPortal({ portalId: tenant.portalId }), installed(true));
    const access = new TenantAccess(repositories, clock);

    await access.check({ portalId: tenant.portalId, appId: 'app-a' });
    await access.check({ portalId: tenant.portalId, appId: 'app-b' });
    await access.check({ portalId: tenant.portalId, appId: 'app-a' });

    expect([state.portalReads, state.installReads]).toEqual([1, 2]);
  });
});
