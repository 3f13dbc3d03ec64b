import type { ConsoleOverview, ConsoleStoreOverview } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { ActivityChart } from '../components/activity-chart';
import { Empty, formatTime, PolledView, UpdatedAt } from '../components/states';
import { Link } from '../router';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { AlertsCard } from './overview-alerts';
import { OBJECT_TYPES, scopeQuery, typeLabel } from './scope';
import { appNames, ownerLabel, ownerOf } from './store-owner';
import { useInstalls } from '../components/install-picker';

const STATES = [
  ['received', 'Received'],
  ['applied', 'Applied'],
  ['withOpenErrors', 'With open errors'],
  ['waiting', 'Waiting for a referenced object'],
  ['deleted', 'Deleted in the CRM'],
  ['notProcessed', 'Not yet processed'],
] as const;

function StoreCard({ store, errorsPath, names }: { store: ConsoleStoreOverview; errorsPath: string; names: ReadonlyMap<string, string> }) {
  const owner = ownerOf(store.appId);
  const id = `store-${store.portalId}-${owner}-${store.storeId}`;
  const errorTypes = Object.entries(store.openErrorsByType);
  return (
    <section className="card" aria-labelledby={id} data-owner={owner} data-store={store.storeId}>
      <h2 id={id}>
        {store.label} <span className="muted">({store.storeId})</span> · {ownerLabel(owner, names)}
      </h2>
      <p className="muted">
        Portal {store.portalId} · last processed: <time>{formatTime(store.lastProcessedAt)}</time>
      </p>
      <table>
        <caption>Objects by state</caption>
        <thead>
          <tr>
            <th scope="col">Object type</th>
            {STATES.map(([, label]) => (
              <th scope="col" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {OBJECT_TYPES.map((type) => (
            <tr key={type} data-object-type={type}>
              <th scope="row">{typeLabel[type]}</th>
              {STATES.map(([key]) => (
                <td key={key} data-state={key}>
                  {store.objectTypes[type][key]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Open errors by type</h3>
      {errorTypes.length === 0 ? (
        <p>No open errors.</p>
      ) : (
        <ul className="error-types">
          {errorTypes.map(([type, count]) => (
            <li key={type}>
              <Link to={`${errorsPath}?${new URLSearchParams({ owner, storeId: store.storeId, errorType: type })}`}>
                {type}: {count}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Overview: the alert rules' states (customers), activity, and per store objects per type by state, open errors by type, last processed time. */
export function OverviewPage({ session, params, basePath }: { session: Session; params: Record<string, string>; basePath: string }) {
  const polled = usePolling(
    () => sessionApi<ConsoleOverview>(session, '/console/api/v1/overview', { query: scopeQuery(session, params) }),
    [session.secret, params.portalId, params.appId],
  );
  const names = appNames(useInstalls(session).data?.results);
  return (
    <>
      <h1>Overview</h1>
      <UpdatedAt at={polled.updatedAt} />
      {session.role === 'customer' ? <AlertsCard session={session} params={params} alertsPath={`${basePath}/alerts`} /> : null}
      <ActivityChart session={session} query={scopeQuery(session, params)} />
      <PolledView
        polled={polled}
        what="the overview"
        isEmpty={(overview) => overview.stores.length === 0}
        empty={
          <Empty title="No stores yet">
            <p>
              Nothing was synced yet. Define a store (PUT /extensions/ecomm/v2/stores) or install (v1), then send sync messages; they show up here as they are
              processed.
            </p>
          </Empty>
        }
      >
        {(overview) =>
          overview.stores.map((store) => (
            <StoreCard key={`${store.portalId}-${store.appId}-${store.storeId}`} store={store} errorsPath={`${basePath}/errors`} names={names} />
          ))
        }
      </PolledView>
    </>
  );
}
