import { useRef, useState } from 'react';
import type { ConsoleAlertRule } from '@ecomm-sync/contracts';
import { PortalPick, usePickedPortal } from '../components/install-picker';
import { ActionResult, Empty, PolledView, UpdatedAt } from '../components/states';
import type { Session } from '../session';
import { AlertRuleForm } from './alert-rule-form';
import { AlertRulesTable } from './alert-rules';
import { AlertDestinationForm, AlertDestinationsTable, SigningSecret } from './alert-destinations';
import { AlertNotices } from './alert-notices';
import { useAlerts } from './use-alerts';
import { tenantQuery } from './scope';
import { storeIds, useStores } from './use-stores';

/**
 * Alerts (issue 29): the tenant's rules with their state (the install's two included), added,
 * edited, disabled and deleted here; the destinations notices go to; the newest notices and how
 * their delivery went. A customer manages its portal's; an integrator its application's in one of
 * the portals that installed it, picked here (the portal's own rules are the customer's).
 */
export function AlertsPage({ session, params }: { session: Session; params: Record<string, string> }) {
  const integrator = session.role === 'integrator';
  const [portalId, pickPortal] = usePickedPortal();
  return (
    <>
      <h1>Alerts</h1>
      {integrator ? <PortalPick session={session} portalId={portalId} onPick={pickPortal} /> : null}
      {integrator && !portalId ? (
        <Empty title="Pick a portal">
          <p>Your application&apos;s alert rules and destinations are kept per portal: pick one of the portals that installed it.</p>
        </Empty>
      ) : (
        // A new portal starts afresh: no rule left open in the form, no secret of another portal's destination.
        <AlertsSections key={portalId} session={session} params={params} portalId={portalId} />
      )}
    </>
  );
}

function AlertsSections({ session, params, portalId }: { session: Session; params: Record<string, string>; portalId: string }) {
  const integrator = session.role === 'integrator';
  const alerts = useAlerts(session, tenantQuery(session, params, portalId));
  // A rule watches its own tenant's data: the session's application (an integrator, or a customer
  // signed in with an application's token) or the portal's own (a portal key). The overview lists
  // every tenant's stores in scope: an integrator's in every portal, a customer's of every
  // application in the portal. Only the rule's tenant's are offered.
  const ruleAppId = session.appId ?? null;
  const stores = useStores(session, params).filter((store) => store.appId === ruleAppId && (!integrator || String(store.portalId) === portalId));
  const [editing, setEditing] = useState<ConsoleAlertRule | null>(null);
  const rulesHeading = useRef<HTMLHeadingElement>(null);
  const destinationsHeading = useRef<HTMLHeadingElement>(null);
  const backToRules = () => {
    setEditing(null);
    rulesHeading.current?.focus();
  };

  return (
    <>
      <UpdatedAt at={alerts.polled.updatedAt} />
      <PolledView polled={alerts.polled} what="the alerts">
        {({ rules, destinations, notices }) => (
          <>
            <section aria-labelledby="rules-heading">
              <h2 id="rules-heading" ref={rulesHeading} tabIndex={-1}>
                Rules
              </h2>
              <p className="help">
                Each rule is checked once a minute. When it starts firing, and when it is resolved, each destination gets one notice. The two rules that came
                with the install can be edited or disabled, not deleted.
                {integrator ? ` These are your application's rules in portal ${portalId}; the portal's own rules are not shown here.` : ''}
              </p>
              <ActionResult notice={alerts.rules.notice} />
              <AlertRulesTable
                rules={rules}
                busy={alerts.rules.busy}
                onEdit={setEditing}
                onSetEnabled={(rule, enabled) => void alerts.rules.setEnabled(rule, enabled)}
                onDelete={(rule) =>
                  void alerts.rules.remove(rule).then((deleted) => {
                    if (!deleted) return; // refused: the notice says why, focus stays on the row
                    if (editing?.id === rule.id) setEditing(null);
                    rulesHeading.current?.focus();
                  })
                }
              />
              {editing ? (
                <AlertRuleForm
                  key={editing.id}
                  editing={editing}
                  // The rule's own store stays a choice (deleted since, or saved before stores were checked) rather than read as "All stores".
                  storeIds={storeIds(stores, ...(editing.storeId ? [editing.storeId] : []))}
                  busy={alerts.rules.busy}
                  onSave={async (input) => {
                    const saved = await alerts.rules.save(input, editing.id);
                    if (saved) backToRules();
                    return saved !== undefined;
                  }}
                  onCancel={backToRules}
                />
              ) : null}
              <AlertRuleForm
                key="new"
                editing={null}
                storeIds={storeIds(stores)}
                busy={alerts.rules.busy}
                onSave={async (input) => (await alerts.rules.save(input)) !== undefined}
                onCancel={backToRules}
              />
            </section>
            <section aria-labelledby="destinations-heading">
              <h2 id="destinations-heading" ref={destinationsHeading} tabIndex={-1}>
                Destinations
              </h2>
              <ActionResult notice={alerts.destinations.notice} />
              {alerts.secret ? (
                <SigningSecret
                  shown={alerts.secret}
                  onDismiss={() => {
                    alerts.dismissSecret();
                    destinationsHeading.current?.focus();
                  }}
                />
              ) : null}
              <AlertDestinationsTable
                destinations={destinations}
                busy={alerts.destinations.busy}
                onRemove={(destination) => void alerts.destinations.remove(destination).then((removed) => removed && destinationsHeading.current?.focus())}
              />
              <AlertDestinationForm busy={alerts.destinations.busy} onAdd={alerts.destinations.add} />
            </section>
            <section aria-labelledby="notices-heading">
              <h2 id="notices-heading">Notices</h2>
              <AlertNotices notices={notices} destinations={destinations} />
            </section>
          </>
        )}
      </PolledView>
    </>
  );
}
