import type { ConsoleReport, ConsoleStoreReport } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { PortalPick, useInstalls, usePickedPortal } from '../components/install-picker';
import { Empty, PolledView, UpdatedAt } from '../components/states';
import type { Session } from '../session';
import { usePolling, type Polled } from '../use-polling';
import { tenantQuery } from './scope';
import { appNames, ownerLabel, ownerOf } from './store-owner';

const money = (amount: number) => amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function StoreReport({ store, names }: { store: ConsoleStoreReport; names: ReadonlyMap<string, string> }) {
  const owner = ownerOf(store.appId);
  const id = `report-${store.portalId}-${owner}-${store.storeId}`;
  return (
    <section className="card" aria-labelledby={id} data-store={store.storeId} data-owner={owner}>
      <h2 id={id}>
        {store.label} <span className="muted">({store.storeId})</span> · {ownerLabel(owner, names)}
      </h2>
      {store.partial ? (
        <p className="notice">This store has more deals or line items than one report reads; the figures cover the first 2,000 of each.</p>
      ) : null}
      <p className="figure" data-abandoned>
        Abandoned checkouts: <strong data-abandoned-count>{store.abandonedCheckouts.count}</strong>, worth{' '}
        <strong data-abandoned-value>{money(store.abandonedCheckouts.value)}</strong>
      </p>
      <table>
        <caption>Revenue by deal stage</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Deals</th>
            <th scope="col">Revenue</th>
          </tr>
        </thead>
        <tbody>
          {store.revenueByStage.map((stage) => (
            <tr key={stage.stage} data-stage={stage.stage}>
              <th scope="row">{stage.label}</th>
              <td data-deals>{stage.deals}</td>
              <td data-revenue>{money(stage.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {store.topProducts.length === 0 ? (
        <p>No line items yet, so no products to rank.</p>
      ) : (
        <table>
          <caption>Top products by line-item revenue</caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Quantity</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {store.topProducts.map((product) => (
              <tr key={product.product} data-product={product.product}>
                <th scope="row">{product.product}</th>
                <td data-quantity>{product.quantity}</td>
                <td data-revenue>{money(product.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The reporting dashboard the install adds: per store, from the CRM's deals and line items. */
export function ReportPage({ session, params }: { session: Session; params: Record<string, string> }) {
  const integrator = session.role === 'integrator';
  const [portalId, pickPortal] = usePickedPortal();
  const waiting = integrator && !portalId;
  const query = tenantQuery(session, params, portalId);
  const polled = usePolling(
    () => (waiting ? Promise.resolve(undefined) : sessionApi<ConsoleReport>(session, '/console/api/v1/report', { query })),
    [session.secret, params.portalId, params.appId, portalId],
    15_000,
    [portalId], // another portal's report starts empty, never under this one's name
  );
  const names = appNames(useInstalls(session).data?.results);
  return (
    <>
      <h1>Reporting</h1>
      {/* An integrator reads one portal's report at a time (each reads that portal's CRM). */}
      {integrator ? <PortalPick session={session} portalId={portalId} onPick={pickPortal} /> : null}
      {waiting ? (
        <Empty title="Pick a portal">
          <p>The report reads one portal&apos;s CRM at a time: pick one of the portals that installed your application.</p>
        </Empty>
      ) : (
        <ReportBody polled={polled} names={names} />
      )}
    </>
  );
}

function ReportBody({ polled, names }: { polled: Polled<ConsoleReport | undefined>; names: ReadonlyMap<string, string> }) {
  return (
    <>
      <UpdatedAt at={polled.updatedAt} />
      <PolledView
        polled={polled}
        what="the report"
        isEmpty={(report) => report.stores.length === 0}
        empty={
          <Empty title="Nothing to report yet">
            <p>The report counts deals and line items once they are in the CRM. Sync orders (deals) and their line items to see revenue here.</p>
          </Empty>
        }
      >
        {(report) => report.stores.map((store) => <StoreReport key={`${store.portalId}-${store.appId}-${store.storeId}`} store={store} names={names} />)}
      </PolledView>
    </>
  );
}
