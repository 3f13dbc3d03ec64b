import type { Tenant } from '@ecomm-sync/contracts';
import type { Portal, Repositories } from '@ecomm-sync/data-access';
import { keyOf, TtlCache } from '@ecomm-sync/domain';

export type Access = { portal: Portal } | { held: { type: 'INACTIVE_PORTAL' | 'PORTAL_NOT_SYNC_ENABLED'; reason: string } };

/** How long a positive answer (active portal, install done) is reused. */
const CACHE_MS = 5_000;

/**
 * Whether a tenant's changes can apply now, and to which portal: its portal must be active and
 * its ecommerce install done. Only positive answers are kept, so that the changes of a portal
 * being enabled or installed are not held back by a stale entry.
 */
export class TenantAccess {
  private readonly portals: TtlCache<Portal | null>;
  private readonly installs: TtlCache<boolean>;

  constructor(
    private readonly repositories: { portals: Pick<Repositories['portals'], 'findById'>; ecommerceInstalls: Pick<Repositories['ecommerceInstalls'], 'find'> },
    clock: () => number,
  ) {
    this.portals = new TtlCache(CACHE_MS, undefined, clock);
    this.installs = new TtlCache(CACHE_MS, undefined, clock);
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
    return { portal };
  }

  /** Drops cached portals and installs (the gateway broadcasts when a portal or install changed). */
  forget(): void {
    this.portals.clear();
    this.installs.clear();
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

  private async portal(portalId: number): Promise<Portal | null> {
    const key = keyOf(portalId);
    const portal = await this.portals.get(key, () => this.repositories.portals.findById(portalId));
    if (!portal?.active) this.portals.delete(key);
    return portal;
  }
}
