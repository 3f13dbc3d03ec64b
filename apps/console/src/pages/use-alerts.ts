import { useState } from 'react';
import type {
  AlertDestinationInput,
  AlertRuleInput,
  AlertRuleSwitch,
  ConsoleAlertDestination,
  ConsoleAlertNotice,
  ConsoleAlertRule,
} from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import type { Session } from '../session';
import { useAction } from '../use-action';
import { usePolling } from '../use-polling';

const ALERTS = '/console/api/v1/alerts';

/** GET /console/api/v1/alerts: the tenant's rules with their state, destinations, newest notices. */
export interface ConsoleAlerts {
  rules: ConsoleAlertRule[];
  destinations: ConsoleAlertDestination[];
  notices: ConsoleAlertNotice[];
}

/** A webhook destination's signing secret: the API answers it once, the page keeps it until dismissed (in memory only). */
export interface ShownSecret {
  target: string;
  secret: string;
}

/** Which tenant's alerts: the query of the page's tenant (scope.ts `tenantQuery`). */
type TenantQuery = Record<string, string | undefined>;

/** The tenant's alerts, read every `intervalMs` (the overview's card reads them less often than the alerts page). */
export const useAlertsRead = (session: Session, query: TenantQuery, intervalMs = 5000) =>
  usePolling(() => sessionApi<ConsoleAlerts>(session, ALERTS, { query }), [session.secret, query.portalId], intervalMs);

const quoted = (name: string) => `“${name}”`;

/**
 * The alerts page's state: the polled read, and the rules' and destinations' actions, each with
 * its own notice (shown beside its section). Every action reads the alerts again when it ends.
 * An integrator's are its application's rules and destinations in the portal it picked.
 */
export function useAlerts(session: Session, query: TenantQuery) {
  const polled = useAlertsRead(session, query);
  const rules = useAction();
  const destinations = useAction();
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const path = (kind: 'rules' | 'destinations', id?: string) => `${ALERTS}/${kind}${id ? `/${encodeURIComponent(id)}` : ''}`;
  const reloaded = <T>(result: Promise<T>) => result.finally(polled.reload);

  /** Adds a rule (no `id`) or replaces one; answers the stored rule, or undefined when refused (the notice says why). */
  const saveRule = (input: AlertRuleInput, id?: string) =>
    reloaded(
      rules.act(
        id ? `Saving rule ${quoted(input.name)}` : `Adding rule ${quoted(input.name)}`,
        () => sessionApi<ConsoleAlertRule>(session, path('rules', id), { method: id ? 'PUT' : 'POST', query, body: input }),
        (rule) => `Rule ${quoted(rule.name)} ${id ? 'saved' : 'added'}${rule.enabled ? '' : ' (disabled)'}.`,
      ),
    );

  /** Enables or disables a rule, sending nothing else: an edit saved since the page read it stays. */
  const setRuleEnabled = (rule: ConsoleAlertRule, enabled: boolean) =>
    reloaded(
      rules.act(
        `${enabled ? 'Enabling' : 'Disabling'} rule ${quoted(rule.name)}`,
        () => sessionApi<ConsoleAlertRule>(session, path('rules', rule.id), { method: 'PATCH', query, body: { enabled } satisfies AlertRuleSwitch }),
        () => `Rule ${quoted(rule.name)} ${enabled ? 'enabled' : 'disabled'}.`,
      ),
    );

  const deleteRule = (rule: ConsoleAlertRule) =>
    reloaded(
      rules.act(
        `Deleting rule ${quoted(rule.name)}`,
        () => sessionApi<void>(session, path('rules', rule.id), { method: 'DELETE', query }).then(() => true),
        () => `Rule ${quoted(rule.name)} deleted.`,
      ),
    );

  const addDestination = async (input: AlertDestinationInput) => {
    setSecret(null);
    const added = await reloaded(
      destinations.act(
        `Adding the destination`,
        () => sessionApi<ConsoleAlertDestination & { signingSecret?: string }>(session, path('destinations'), { method: 'POST', query, body: input }),
        (destination) => `Destination ${destination.target} added.`,
      ),
    );
    if (added?.signingSecret) setSecret({ target: added.target, secret: added.signingSecret });
    return added;
  };

  const removeDestination = (destination: ConsoleAlertDestination) =>
    reloaded(
      destinations.act(
        `Removing destination ${destination.target}`,
        () => sessionApi<void>(session, path('destinations', destination.id), { method: 'DELETE', query }).then(() => true),
        () => `Destination ${destination.target} removed; its pending notices will not be sent.`,
      ),
    );

  return {
    polled,
    rules: { busy: rules.busy, notice: rules.notice, save: saveRule, setEnabled: setRuleEnabled, remove: deleteRule },
    destinations: { busy: destinations.busy, notice: destinations.notice, add: addDestination, remove: removeDestination },
    secret,
    dismissSecret: () => setSecret(null),
  };
}

export type AlertsState = ReturnType<typeof useAlerts>;
