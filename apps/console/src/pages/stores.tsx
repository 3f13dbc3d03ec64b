import { useState } from 'react';
import type { V2Store } from '@ecomm-sync/contracts';
import { ApiError, sessionApi } from '../api';
import { Empty, ErrorState, Loading, UpdatedAt } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';

const STORES = '/extensions/ecomm/v2/stores';

/** The portal's stores (the existing v2 stores endpoints): list, create, delete. */
export function StoresPage({ session, params }: { session: Session; params: Record<string, string> }) {
  // The stores endpoints answer for the credential's own portal: a URL naming another one is refused here.
  const otherPortal = String(session.portalId) !== params.portalId;
  const polled = usePolling(
    () =>
      otherPortal
        ? Promise.reject(new ApiError(403, `This credential belongs to portal ${session.portalId}, not to portal ${params.portalId}`))
        : sessionApi<{ results: V2Store[] }>(session, STORES),
    [session.secret, params.portalId],
    5000,
  );
  const [id, setId] = useState('');
  const [label, setLabel] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (what: string, call: () => Promise<unknown>) => {
    setBusy(true);
    setNotice('');
    try {
      await call();
      setNotice(`${what}: done.`);
      polled.reload();
    } catch (error) {
      setNotice(`${what} failed: ${error instanceof ApiError ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Stores</h1>
      <UpdatedAt at={polled.updatedAt} />
      <p className="notice" role="status" aria-live="polite">
        {notice}
      </p>
      {polled.error ? (
        <ErrorState error={polled.error} onRetry={polled.reload} />
      ) : polled.data === undefined ? (
        <Loading what="the stores" />
      ) : (
        <>
          {polled.data.results.length === 0 ? (
            <Empty title="No stores yet">
              <p>Add the first store below; its first definition sets up the ecommerce pipeline in the CRM.</p>
            </Empty>
          ) : (
            <table>
              <caption>Stores</caption>
              <thead>
                <tr>
                  <th scope="col">Store id</th>
                  <th scope="col">Label</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {polled.data.results.map((store) => (
                  <tr key={store.id} data-store-id={store.id}>
                    <th scope="row">{store.id}</th>
                    <td>{store.label}</td>
                    <td>
                      <button
                        type="button"
                        disabled={busy}
                        aria-label={`Delete store ${store.id}`}
                        onClick={() =>
                          window.confirm(`Delete store ${store.id}?`) &&
                          void act(`Delete store ${store.id}`, () => sessionApi(session, `${STORES}/${encodeURIComponent(store.id)}`, { method: 'DELETE' }))
                        }
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2 id="store-form">Add or update a store</h2>
          <form
            className="filters"
            aria-labelledby="store-form"
            onSubmit={(event) => {
              event.preventDefault();
              void act(`Save store ${id}`, () => sessionApi(session, STORES, { method: 'PUT', body: { id, label } })).then(() => {
                setId('');
                setLabel('');
              });
            }}
          >
            <label>
              Store id
              <input value={id} onChange={(e) => setId(e.target.value)} required maxLength={100} />
            </label>
            <label>
              Label
              <input value={label} onChange={(e) => setLabel(e.target.value)} required />
            </label>
            <button type="submit" disabled={busy} className="align-end">
              Add or update the store
            </button>
          </form>
        </>
      )}
    </>
  );
}
