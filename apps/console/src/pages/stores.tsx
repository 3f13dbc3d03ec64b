import { useEffect, useState } from 'react';
import type { V2Store } from '@ecomm-sync/contracts';
import { ApiError, sessionApi } from '../api';
import { ActionResult, Empty, PolledView, UpdatedAt } from '../components/states';
import { useLocation } from '../router';
import type { Session } from '../session';
import { useAction } from '../use-action';
import { usePolling } from '../use-polling';
import { ImportProgress, type FollowedImport } from './import-progress';
import { ImportList, followQuery } from './import-list';
import { ImportStart } from './import-start';
import { appNames, ownerLabel, ownerOf } from './store-owner';
import { useInstalls } from '../components/install-picker';

const STORES = '/extensions/ecomm/v2/stores';
const DEFAULT_STORE = 'default';

/** `default` takes the v1 traffic: the service keeps it while ecommerce is installed (it answers 409). */
function StoreAction({ store, busy, onDelete }: { store: V2Store; busy: boolean; onDelete: () => void }) {
  if (store.id === DEFAULT_STORE) {
    return <span className="kept">Kept while ecommerce is installed: it receives the v1 traffic. Uninstalling removes every store.</span>;
  }
  return (
    <button type="button" disabled={busy} aria-label={`Delete store ${store.id}`} onClick={() => window.confirm(`Delete store ${store.id}?`) && onDelete()}>
      Delete
    </button>
  );
}

/** The portal's stores (the existing v2 stores endpoints): list, create, delete; and imports of a store, started and followed. */
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
  // The stores endpoints answer for the credential's own tenant: the portal's own with a portal key, the application's with its token.
  const names = appNames(useInstalls(session).data?.results);
  const owner = ownerLabel(ownerOf(session.appId), names);
  const [id, setId] = useState('');
  const [label, setLabel] = useState('');
  const { busy, notice, act: call, clearRefusal } = useAction();
  // Each store action that went through: the import form's refusal, if any, is then out of date.
  const [storeActionsDone, setStoreActionsDone] = useState(0);
  const act = (what: string, request: () => Promise<unknown>) =>
    call(what, () => request().then(() => true))
      .then((done) => done && setStoreActionsDone((n) => n + 1))
      .finally(polled.reload);
  const { search, path, navigate } = useLocation();
  // Following an import (or any other move of the address) leaves a refusal shown before out of date.
  useEffect(clearRefusal, [search, clearRefusal]);
  const query = new URLSearchParams(search);
  const followed: FollowedImport | null = query.get('import')
    ? { importStartedAt: query.get('import')!, storeId: query.get('store') ?? DEFAULT_STORE, appId: query.get('app') ?? '' }
    : null;
  const follow = (started: FollowedImport) => navigate(`${path}?${followQuery(started)}`);

  return (
    <>
      <h1>Stores and imports</h1>
      <UpdatedAt at={polled.updatedAt} />
      <ActionResult notice={notice} />
      <PolledView polled={polled} what="the stores">
        {(stores) => (
          <>
            {stores.results.length === 0 ? (
              <Empty title="No stores yet">
                <p>Add the first store below; its first definition sets up the ecommerce pipeline in the CRM.</p>
              </Empty>
            ) : (
              <table>
                <caption>Stores of: {owner}</caption>
                <thead>
                  <tr>
                    <th scope="col">Store id</th>
                    <th scope="col">Label</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {stores.results.map((store) => (
                    <tr key={store.id} data-store-id={store.id}>
                      <th scope="row">{store.id}</th>
                      <td>{store.label}</td>
                      <td>
                        <StoreAction
                          store={store}
                          busy={busy}
                          onDelete={() =>
                            void act(`Delete store ${store.id}`, () => sessionApi(session, `${STORES}/${encodeURIComponent(store.id)}`, { method: 'DELETE' }))
                          }
                        />
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
                void call(`Save store ${id}`, () => sessionApi(session, STORES, { method: 'PUT', body: { id, label } })).then((saved) => {
                  polled.reload();
                  if (saved === undefined) return; // refused: the notice says why, the form keeps what was typed
                  setStoreActionsDone((n) => n + 1);
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
            <ImportStart session={session} params={params} onStarted={follow} refusalOutdatedBy={`${search}|${storeActionsDone}`} />
            <ImportList session={session} params={params} path={path} followed={followed} names={names} />
            {followed ? <ImportProgress session={session} followed={followed} /> : null}
          </>
        )}
      </PolledView>
    </>
  );
}
