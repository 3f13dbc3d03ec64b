import { isSealed, sealedFor, sealedPortalFieldContext, storedDestinationTarget, type Repositories, type SecretBox } from '@ecomm-sync/data-access';

const PAGE = 200;

export interface ResealReport {
  /** Values sealed again under the current key, bound to what they belong to. */
  resealed: number;
  /** Values already sealed under the current key. */
  current: number;
  /** Values that opened with no key this service has (or changed meanwhile): left as they were. */
  failed: { what: string; reason: string }[];
}

/**
 * `ecomm-sync reseal`: seals every stored secret again under SECRETS_KEY, bound to its portal,
 * application or alert destination (values of the first form and values under a previous key), and
 * seals the alert destinations' URLs stored whole before URLs were sealed; after it reports no
 * failure, SECRETS_PREVIOUS_KEYS can go. Each value is replaced only if it is still the one read,
 * so running it beside the services is safe; running it twice changes nothing the second time.
 */
export async function resealSecrets(repositories: Pick<Repositories, 'portals' | 'accounts' | 'alertDestinations'>, box: SecretBox): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0, failed: [] };
  const reseal = async (what: string, sealed: string, context: string, replace: (to: string) => Promise<boolean>) => {
    if (!box.needsReseal(sealed)) return void report.current++;
    try {
      const to = box.seal(box.open(sealed, context), context);
      if (await replace(to)) report.resealed++;
      else report.failed.push({ what, reason: 'changed meanwhile; run reseal again' });
    } catch (error) {
      report.failed.push({ what, reason: error instanceof Error ? error.message : String(error) });
    }
  };
  for (let after = 0; ;) {
    const { values, last } = await repositories.portals.sealedValues(after, PAGE);
    for (const { portalId, field, sealed } of values) {
      await reseal(`portal ${portalId} ${field}`, sealed, sealedPortalFieldContext(portalId, field), (to) =>
        repositories.portals.replaceSealed(portalId, field, sealed, to),
      );
    }
    if (last === null) break;
    after = last;
  }
  for (let after = ''; ;) {
    const page = await repositories.accounts.sealedClientSecrets(after, PAGE);
    for (const { appId, sealed } of page) {
      await reseal(`application ${appId} client secret`, sealed, sealedFor.appClientSecret(appId), (to) =>
        repositories.accounts.replaceSealedClientSecret(appId, sealed, to),
      );
    }
    if (page.length === 0) break;
    after = page[page.length - 1].appId;
  }
  for (let after = ''; ;) {
    const page = await repositories.alertDestinations.sealedSecrets(after, PAGE);
    for (const { id, sealed } of page) {
      await reseal(`alert destination ${id} signing secret`, sealed, sealedFor.alertDestinationSecret(id), (to) =>
        repositories.alertDestinations.replaceSealedSecret(id, sealed, to),
      );
    }
    if (page.length === 0) break;
    after = page[page.length - 1].id;
  }
  for (let after = ''; ;) {
    const page = await repositories.alertDestinations.urlTargets(after, PAGE);
    for (const { id, kind, target } of page) {
      if (isSealed(target) && !box.needsReseal(target)) {
        report.current++;
        continue;
      }
      try {
        // Stored whole before URLs were sealed, or sealed under a previous key: sealed under the current one, with how it reads.
        const url = isSealed(target) ? box.open(target, sealedFor.alertDestinationUrl(id)) : target;
        if (await repositories.alertDestinations.replaceTarget(id, target, storedDestinationTarget(box, id, kind, url))) report.resealed++;
        else report.failed.push({ what: `alert destination ${id} URL`, reason: 'changed meanwhile; run reseal again' });
      } catch (error) {
        report.failed.push({ what: `alert destination ${id} URL`, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    if (page.length === 0) break;
    after = page[page.length - 1].id;
  }
  return report;
}

/**
 * What `reseal` prints and its exit code. A walk that found no sealed value at all fails (unless
 * `allowEmpty`): it most likely read another database than the services' (MONGO_URL, MONGO_DB),
 * and an operator who took "no failure" for done would drop the old keys every secret still needs.
 */
export function resealOutcome(report: ResealReport, { keyId, database, allowEmpty }: { keyId: string; database: string; allowEmpty: boolean }) {
  const found = report.resealed + report.current + report.failed.length;
  const lines = [
    `database ${database}: sealed again under key ${keyId}: ${report.resealed}; already current: ${report.current}; failed: ${report.failed.length}`,
    ...report.failed.map(({ what, reason }) => `  ${what}: ${reason}`),
  ];
  if (found === 0 && !allowEmpty) {
    lines.push(
      `no sealed value found in database ${database}: is it the services' database (MONGO_URL, MONGO_DB)? Keep SECRETS_PREVIOUS_KEYS; ` +
        'if the database really holds no secret, run reseal --allow-empty',
    );
  }
  return { lines, exitCode: report.failed.length > 0 || (found === 0 && !allowEmpty) ? 1 : 0 };
}
