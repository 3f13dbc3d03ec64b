import type { Repositories } from '@ecomm-sync/data-access';

/** A portal with a known API key, straight in the database (tests of one service, no CRM account). */
export async function seedPortal(repositories: Pick<Repositories, 'portals' | 'credentials'>, portal: { portalId: number; apiKey: string; name?: string }): Promise<void> {
  await repositories.portals.create({ portalId: portal.portalId, name: portal.name ?? `Portal ${portal.portalId}`, crmToken: 'no-crm' });
  await repositories.credentials.issue('portal-key', { portalId: portal.portalId }, Date.now(), portal.apiKey);
}
