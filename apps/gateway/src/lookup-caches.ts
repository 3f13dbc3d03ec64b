import { lookupsChangeOf, TOPICS, type LookupsChange, type LookupsChangedMessage } from '@ecomm-sync/contracts';
import type { CrmConnections } from '@ecomm-sync/crm-client';
import type { Credential } from '@ecomm-sync/data-access';
import { keyPrefixOf, TtlCache } from '@ecomm-sync/domain';
import type { Broker } from '@ecomm-sync/messaging';
import type { Logger } from '@ecomm-sync/runtime';

/**
 * The gateway's cached look-ups (credentials by secret, stores by tenant) and its CRM clients, kept
 * alike in every replica through `lookups.changed` (decision 12; decision 13, addendum of
 * 2026-12-06): `changed()` drops them here at once and tells the other replicas. A tenant's change
 * drops its store look-ups, and its portal's CRM client when the install set the portal's CRM up;
 * nothing of other tenants. An install's deleted tokens drop the credentials cached of that install.
 * Anything else (an empty message, a reconnect): everything.
 */
export async function lookupCaches({
  broker,
  connections,
  cacheMs,
  logger,
}: {
  broker: Pick<Broker, 'subscribeAll' | 'publish'>;
  connections: Pick<CrmConnections, 'forget'>;
  cacheMs: number;
  logger: Pick<Logger, 'warn'>;
}) {
  const credentials = new TtlCache<Credential | null>(cacheMs);
  const stores = new TtlCache<boolean>(cacheMs);
  const forget = (message?: unknown) => {
    const change = lookupsChangeOf(message);
    if (change && 'tokensOf' in change) {
      const { portalId, appId } = change.tokensOf;
      credentials.deleteWhere((credential) => credential?.portalId === portalId && credential.appId === appId);
      return;
    }
    if (change) {
      stores.deleteStartingWith(keyPrefixOf(change.tenant.portalId, change.tenant.appId));
      if (change.crmSetUp) connections.forget(change.tenant.portalId);
      return;
    }
    credentials.clear();
    stores.clear();
    connections.forget();
  };
  await broker.subscribeAll(TOPICS.lookupsChanged, forget, () => forget());

  /** Drops cached look-ups in every replica (this one at once): a tenant's, or all. */
  const changed = async (change?: LookupsChange) => {
    const message: LookupsChangedMessage = change ?? {};
    forget(message);
    await broker
      .publish(TOPICS.lookupsChanged, message)
      .catch((error) => logger.warn('could not tell other replicas to drop cached look-ups', { error: String(error) }));
  };
  return { credentials, stores, changed };
}
