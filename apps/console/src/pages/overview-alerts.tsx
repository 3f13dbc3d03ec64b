import { TimeOf } from '../components/states';
import { Link } from '../router';
import type { Session } from '../session';
import { firingFirst, statusOf } from './alert-rule-draft';
import { RuleStatusBadge } from './alert-rules';
import { scopeQuery } from './scope';
import { useAlertsRead } from './use-alerts';

/** The overview's alerts card: every rule's state, firing ones first, linking to the alerts page. */
export function AlertsCard({ session, params, alertsPath }: { session: Session; params: Record<string, string>; alertsPath: string }) {
  const polled = useAlertsRead(session, scopeQuery(session, params), 15_000);
  const rules = firingFirst(polled.data?.rules ?? []);
  const firing = rules.filter((rule) => statusOf(rule) === 'firing').length;
  // A refused page (another portal, an expired sign-in) says so once, in the overview's own state.
  if (polled.error && [401, 403, 404].includes(polled.error.status)) return null;
  return (
    <section className="card" aria-labelledby="alerts-card">
      <h2 id="alerts-card">Alerts</h2>
      {polled.error ? (
        <p className="form-error">The alerts could not be read: {polled.error.message}</p>
      ) : !polled.data ? (
        <p className="muted">Loading the alerts…</p>
      ) : (
        <>
          <p className="muted" data-testid="alerts-summary">
            {firing === 0 ? 'No rule is firing.' : `${firing} rule${firing === 1 ? ' is' : 's are'} firing.`} {rules.length} rule
            {rules.length === 1 ? '' : 's'}, {polled.data.destinations.length} destination{polled.data.destinations.length === 1 ? '' : 's'}.
          </p>
          <ul className="alert-states">
            {rules.map((rule) => (
              <li key={rule.id} data-rule-name={rule.name} data-status={statusOf(rule)}>
                <RuleStatusBadge rule={rule} /> {rule.name}
                {statusOf(rule) === 'firing' && rule.state.since !== null ? (
                  <span className="muted">
                    {' '}
                    since <TimeOf at={rule.state.since} />: {rule.state.summary}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        <Link to={alertsPath}>Manage alerts and destinations</Link>
      </p>
    </section>
  );
}
