import type { Tenant } from '@ecomm-sync/contracts';
import type { Portal, Repositories } from '@ecomm-sync/data-access';

export type Access = { portal: Portal } | { held: { type: 'INACTIVE_PORTAL' | 'PORTAL_NOT_SYNC_ENABLED'; reason: string } };

/** How long a positive answer (active portal, install done) is reused. */
const CACHE_MS = 5_000;

/**
 * Whether a tenant's changes can apply now, and to which portal: its portal must be active and
 * its ecommerce install done. Only positive answers are cached, so that the changes of a portal
 * being enabled or installed are not held back by a stale entry.
 */
export class TenantAccess {
  private readonly portals = new Map<number, { at: number; portal: Portal | null }>();
  private readonly installs = new Map<string, number>();

  constructor(
    private readonly repositories: Pick<Repositories, 'portals' | 'ecommerceInstalls'>,
    private readonly clock: () => number,
  ) {}

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

  private async installed(tenant: Tenant): Promise<boolean> {
    const key = `${tenant.portalId}:${tenant.appId ?? ''}`;
    const cached = this.installs.get(key);
    if (cached !== undefined && this.clock() - cached < CACHE_MS) return true;
    const { installCompleted } = await this.repositories.ecommerceInstalls.find(tenant);
    if (installCompleted) this.installs.set(key, this.clock());
    else this.installs.delete(key);
    return installCompleted;
  }

  private async portal(portalId: number): Promise<Portal | null> {
    const cached = this.portals.get(portalId);
    if (cached?.portal?.active && this.clock() - cached.at < CACHE_MS) return cached.portal;
    const portal = await this.repositories.portals.findById(portalId);
    this.portals.set(portalId, { at: this.clock(), portal });
    return portal;
  }
}
