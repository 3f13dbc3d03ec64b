import type { Tenant } from '@ecomm-sync/contracts';
import type { Portal, Repositories } from '@ecomm-sync/data-access';
import { keyOf, TtlCache } from '@ecomm-sync/domain';

export type Access =
  { portal: Portal } | { held: { type: 'INACTIVE_PORTAL' | 'PORTAL_NOT_SYNC_ENABLED' | 'NO_SYNC_SETTINGS' | 'SETTINGS_NOT_ENABLED'; reason: string } };

/** How long a positive answer (active portal, install done, settings enabled) is reused. */
const CACHE_MS = 5_000;

/**
 * Whether a tenant's changes can apply now, and to which portal: its portal must be active, its
 * ecommerce install done, and its settings enabled (SPEC.md: `enabled: false` pauses the sync; a
 * change mapped before the pause, parked for the CRM's budget or waiting for its associations, is
 * held too; enabling the settings again re-applies everything). Only positive answers are kept, so
 * that the changes of a portal being enabled or installed are not held back by a stale entry; a
 * pause is seen within CACHE_MS.
 */
export class TenantAccess {
  private readonly portals: TtlCache<Portal | null>;
  private readonly installs: TtlCache<boolean>;
  private readonly enabled: TtlCache<boolean | null>;

  constructor(
    private readonly repositories: {
      portals: Pick<Repositories['portals'], 'findById'>;
      ecommerceInstalls: Pick<Repositories['ecommerceInstalls'], 'find'>;
      settings: Pick<Repositories['settings'], 'get'>;
    },
    clock: () => number,
  ) {
    this.portals = new TtlCache(CACHE_MS, undefined, clock);
    this.installs = new TtlCache(CACHE_MS, undefined, clock);
    this.enabled = new TtlCache(CACHE_MS, undefined, clock);
  }

  /** The portal to apply a tenant's changes to, or why they are held (a catch-up applies them later). */
  async check(tenant: Tenant): Promise<Access> {
    const portal = await this.portal(tenant.portalId);
    if (!portal || !portal.active) return { held: { type: 'INACTIVE_PORTAL', reason: `portal ${tenant.portalId} is ${portal ? 'disabled' : 'unknown'}` } };
    if (!(await this.installed(tenant))) {
      const whose = tenant.appId ? `application ${tenant.appId} in portal ${tenant.portalId}` : `portal ${tenant.portalId}`;
      return {
        held: {
          type: 'PORTAL_NOT_SYNC_ENABLED',
          reason: `the ecommerce install of ${whose} is not done (POST /extensions/ecomm/v1/installs, or PUT a v2 store)`,
        },
      };
    }
    const enabled = await this.settingsEnabled(tenant);
    if (enabled !== true) {
      const whose = tenant.appId ? `application ${tenant.appId}` : `portal ${tenant.portalId}`;
      return enabled === null
        ? { held: { type: 'NO_SYNC_SETTINGS', reason: `the settings of ${whose} were deleted; PUT settings to sync again` } }
        : { held: { type: 'SETTINGS_NOT_ENABLED', reason: `the settings of ${whose} are disabled; enabling them re-applies what was sent` } };
    }
    return { portal };
  }

  /** Drops cached portals and installs (the gateway broadcasts when a portal or install changed). */
  forget(): void {
    this.portals.clear();
    this.installs.clear();
    this.enabled.clear();
  }

  /** Drops what is cached of one tenant: its install, and with `portal` its portal (whose pipelines its install set up). */
  forgetTenant(tenant: Tenant, { portal }: { portal: boolean }): void {
    if (portal) this.portals.delete(keyOf(tenant.portalId));
    this.installs.delete(keyOf(tenant.portalId, tenant.appId));
  }

  private async installed(tenant: Tenant): Promise<boolean> {
    const key = keyOf(tenant.portalId, tenant.appId);
    const installCompleted = await this.installs.get(key, async () => (await this.repositories.ecommerceInstalls.find(tenant)).installCompleted);
    if (!installCompleted) this.installs.delete(key);
    return installCompleted;
  }

  /** Whether the tenant's settings are enabled; null when it has none. */
  private async settingsEnabled(tenant: Tenant): Promise<boolean | null> {
    const key = keyOf(tenant.portalId, tenant.appId);
    const enabled = await this.enabled.get(key, async () => (await this.repositories.settings.get(tenant))?.enabled ?? null);
    if (enabled !== true) this.enabled.delete(key);
    return enabled;
  }

  private async portal(portalId: number): Promise<Portal | null> {
    const key = keyOf(portalId);
    const portal = await this.portals.get(key, () => this.repositories.portals.findById(portalId));
    if (!portal?.active) this.portals.delete(key);
    return portal;
  }
}
