import { SecretBox, type Repositories } from '@ecomm-sync/data-access';

/** The SECRETS_KEY of services started in-process by tests (the gateway fixture's). */
export const TEST_SECRETS_KEY = 'test-secrets-key-0123456789';

/**
 * A portal with a known API key, straight in the database (tests of one service, no CRM account):
 * its built-in CRM token is a placeholder, sealed with `secretsKey` as the service under test would.
 */
export async function seedPortal(
  repositories: Pick<Repositories, 'portals' | 'credentials'>,
  portal: { portalId: number; apiKey: string; name?: string },
  secretsKey = TEST_SECRETS_KEY,
): Promise<void> {
  const crmTokenSealed = new SecretBox(secretsKey).seal('no-crm');
  await repositories.portals.create({ portalId: portal.portalId, name: portal.name ?? `Portal ${portal.portalId}`, crmTokenSealed });
  await repositories.credentials.issue('portal-key', { portalId: portal.portalId }, Date.now(), portal.apiKey);
}
