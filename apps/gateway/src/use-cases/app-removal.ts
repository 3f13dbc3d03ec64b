import type { CredentialKind, InstallKey, Repositories } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import type { AccountsOptions } from './manage-accounts.use-case';

/**
 * Removes an application from a portal: every token the install had, at once and in every replica
 * first (the application's requests stop before its tenant is cleaned up; a pair a refresh stored
 * meanwhile works until the last step), then the tenant's ecommerce setup (SPEC.md: uninstalling
 * deletes the stores it created and disables its workflows) and alerts, then the install, and its
 * tokens again: a refresh that read the install before it went stored its pair meanwhile
 * (storedWhileInstalled counts on the install going before the tokens), and the tenant's clean-up
 * again, for an install that ran meanwhile. A removal that failed
 * midway is sent again; one of an application not installed, with no token, is a 404.
 */
export async function removeApplication(
  repositories: Pick<Repositories, 'accounts' | 'credentials'>,
  steps: Pick<AccountsOptions, 'onAccessChanged' | 'onUninstalling'>,
  { portalId, appId }: InstallKey,
): Promise<void> {
  const tokens = { portalId, appId, kinds: ['access-token', 'refresh-token'] as CredentialKind[] };
  const installed = await repositories.accounts.findInstall(portalId, appId);
  const revoked = await repositories.credentials.revokeWhere(tokens);
  if (!installed && revoked === 0) throw AppError.notFound(`Application ${appId} is not installed in portal ${portalId}`);
  await steps.onAccessChanged();
  if (installed) await steps.onUninstalling({ portalId, appId });
  await repositories.accounts.removeInstall(portalId, appId);
  if ((await repositories.credentials.revokeWhere(tokens)) > 0) await steps.onAccessChanged();
  // An install or store put of the application that ran meanwhile may have written its stores,
  // mark and alert rules after the clean-up above: cleaned up again (idempotent), unless the
  // application was installed again meanwhile. One still running sees the install gone when it
  // ends and cleans up itself (ManageInstallUseCase).
  if (installed && !(await repositories.accounts.findInstall(portalId, appId))) await steps.onUninstalling({ portalId, appId });
}
