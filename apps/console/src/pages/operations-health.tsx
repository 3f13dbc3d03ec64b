import type { ConsoleCrmAccount, ConsoleServiceReadiness } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { Empty, formatTime, PolledView } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';

/** "ready" / "not ready" for one replica; "2 of 3 ready" for several. */
function readyText(s: ConsoleServiceReadiness): string {
  if (s.replicas.length > 1) return `${s.readyReplicas} of ${s.replicas.length} ready`;
  return s.ready ? 'ready' : 'not ready';
}

/** Each service's readiness: every replica's /readyz answer (decision 0054). */
export function ServicesReadiness({ session }: { session: Session }) {
  const polled = usePolling(() => sessionApi<{ results: ConsoleServiceReadiness[] }>(session, '/console/api/v1/ops/services'), [session.secret], 5000);
  return (
    <PolledView
      polled={polled}
      what="the services' readiness"
      isEmpty={(services) => services.results.length === 0}
      empty={
        <Empty title="No services configured">
          <p>Set SERVICE_READINESS_URLS on the gateway.</p>
        </Empty>
      }
    >
      {(services) => (
        <table>
          <caption>Readiness of each service: every replica's /readyz</caption>
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Address</th>
              <th scope="col">Ready</th>
              <th scope="col">Answer</th>
            </tr>
          </thead>
          <tbody>
            {services.results.map((s) => (
              <tr key={s.service} data-service={s.service} data-state={s.state}>
                <th scope="row">{s.service}</th>
                <td>{s.url}</td>
                <td data-ready className={s.ready ? undefined : 'warn'}>
                  {readyText(s)}
                </td>
                <td>
                  {s.replicas.length > 1 ? (
                    <ul className="replicas" aria-label={`Replicas of ${s.service}`}>
                      {s.replicas.map((r) => (
                        <li key={r.address} data-replica={r.address}>
                          {r.address}: {r.detail}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    s.detail
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </PolledView>
  );
}

/** Each CRM account's request budget and rate-limit state, with its portal's CRM health. */
export function CrmAccounts({ session }: { session: Session }) {
  const polled = usePolling(() => sessionApi<{ results: ConsoleCrmAccount[] }>(session, '/console/api/v1/ops/crm-accounts'), [session.secret], 5000);
  return (
    <PolledView
      polled={polled}
      what="the CRM accounts"
      isEmpty={(accounts) => accounts.results.length === 0}
      empty={
        <Empty title="No CRM account with a request budget">
          <p>
            An account shows here once a request went through its request budget. Only CRM connections with request limits have one (a hosted CRM, or the
            built-in CRM given limits); a connection without limits takes requests without a budget, so its writes are not counted here.
          </p>
        </Empty>
      }
    >
      {(accounts) => (
        <table>
          <caption>Request budget and rate-limit state per CRM account</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Portal</th>
              <th scope="col">Requests in the last 10 s</th>
              <th scope="col">Requests today</th>
              <th scope="col">Rate limit</th>
              <th scope="col">CRM health</th>
            </tr>
          </thead>
          <tbody>
            {accounts.results.map((a) => (
              <tr key={a.accountKey} data-account={a.accountKey}>
                <th scope="row">{a.accountKey}</th>
                <td>{a.portalId ?? 'several'}</td>
                <td data-used-in-window>{a.usedInWindow}</td>
                <td data-used-today>{a.usedToday}</td>
                <td className={a.pausedUntil ? 'warn' : undefined}>
                  {a.pausedUntil ? `paused (${a.reason ?? 'limit'}) until ${formatTime(a.pausedUntil)}` : 'sending'}
                </td>
                <td data-health>
                  {a.health ? `${a.health.state}: ${a.health.message}${a.health.parkedChanges ? ` (${a.health.parkedChanges} parked)` : ''}` : 'not known'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </PolledView>
  );
}
