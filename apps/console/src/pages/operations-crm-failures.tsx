import type { ConsoleCrmExchange, ConsoleCrmExchanges } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { CrmExchangeTable } from '../components/crm-exchanges';
import { Empty, PolledView } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';

/** Exchanges by CRM account, in the order of each account's newest failure. */
const byAccount = (exchanges: ConsoleCrmExchange[]): [string, ConsoleCrmExchange[]][] => {
  const groups = new Map<string, ConsoleCrmExchange[]>();
  for (const exchange of exchanges) groups.set(exchange.account, [...(groups.get(exchange.account) ?? []), exchange]);
  return [...groups];
};

/** The operator's view of the CRM request log: the newest failed exchanges (no answer, 4xx, 5xx, 207), per CRM account. */
export function CrmFailures({ session }: { session: Session }) {
  const polled = usePolling(
    () => sessionApi<ConsoleCrmExchanges>(session, '/console/api/v1/ops/crm-exchanges/failed', { query: { limit: 100 } }),
    [session.secret],
    5000,
  );
  return (
    <PolledView
      polled={polled}
      what="the failed CRM exchanges"
      isEmpty={(found) => found.results.length === 0}
      empty={
        <Empty title="No failed CRM exchange">
          <p>No request to a CRM failed in the last 7 days (or the request log is off).</p>
        </Empty>
      }
    >
      {(found) => (
        <>
          {byAccount(found.results).map(([account, exchanges]) => (
            <section key={account} className="card" data-crm-account={account} aria-label={`Failed CRM exchanges of ${account}`}>
              <h3>{account}</h3>
              <CrmExchangeTable exchanges={exchanges} caption={`Failed exchanges of ${account}, newest first`} showAccount />
            </section>
          ))}
        </>
      )}
    </PolledView>
  );
}
