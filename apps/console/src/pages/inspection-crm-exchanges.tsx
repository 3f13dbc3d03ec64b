import type { ConsoleCrmExchanges } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { CrmExchangeTable } from '../components/crm-exchanges';
import { PolledView } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';

/** The object inspector's CRM exchanges: each request sent to the CRM for the object, and the CRM's answer (the request log, 7 days). */
export function ObjectCrmExchanges({ session, query }: { session: Session; query: Record<string, string> }) {
  const polled = usePolling(
    () => sessionApi<ConsoleCrmExchanges>(session, '/console/api/v1/objects/crm-exchanges', { query }),
    [session.secret, JSON.stringify(query)],
  );
  return (
    <section className="card" aria-labelledby="crm-exchanges">
      <h2 id="crm-exchanges">CRM exchanges</h2>
      <PolledView
        polled={polled}
        what="the CRM exchanges"
        isEmpty={(found) => found.results.length === 0}
        empty={<p>No request for this object reached the CRM in the last 7 days (or the request log is off).</p>}
      >
        {(found) => (
          <CrmExchangeTable
            exchanges={found.results}
            caption={`What was sent to the CRM for this object and what it answered, newest first${found.results.length === found.limit ? ` (the newest ${found.limit})` : ''}`}
          />
        )}
      </PolledView>
    </section>
  );
}
