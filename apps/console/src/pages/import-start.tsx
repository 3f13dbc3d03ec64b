import { useEffect, useState } from 'react';
import { sessionApi } from '../api';
import { InstallPicker, useInstalls } from '../components/install-picker';
import { SelectField } from '../components/select-field';
import { ActionResult, Empty } from '../components/states';
import type { Session } from '../session';
import { useAction } from '../use-action';
import type { FollowedImport } from './import-progress';
import { storeIds, useStores } from './use-stores';

/**
 * Starts an import of one store of an application (imports are for applications, SPEC.md point
 * 7): signed in with the application's OAuth token, that application; with the portal's key, one
 * of the applications installed in the portal, picked from the list.
 */
export function ImportStart({
  session,
  params,
  onStarted,
  refusalOutdatedBy,
}: {
  session: Session;
  params: Record<string, string>;
  onStarted: (started: FollowedImport) => void;
  /** Changes when the page moved on (its address, another action that went through): a refusal shown here is then cleared. */
  refusalOutdatedBy: string;
}) {
  const installs = useInstalls(session);
  // The stores of every tenant of the portal (or of the token's own): the overview lists them.
  const stores = useStores(session, params);
  const [appId, setAppId] = useState(session.appId ?? '');
  const [storeId, setStoreId] = useState('default');
  const { busy, notice, act, clearRefusal } = useAction();
  useEffect(clearRefusal, [refusalOutdatedBy, clearRefusal]);
  const appStoreIds = storeIds(
    stores.filter((s) => s.appId !== null && s.appId === appId),
    'default',
  );

  const start = async (event: React.FormEvent) => {
    event.preventDefault();
    const started = await act(`Start an import of store ${storeId}`, () =>
      sessionApi<{ importStartedAt: number }>(session, '/extensions/ecomm/v2/imports', {
        method: 'POST',
        query: { appId: session.appId ? undefined : appId },
        body: { storeId },
      }),
    );
    if (started) onStarted({ importStartedAt: String(started.importStartedAt), storeId, appId });
  };

  if (!session.appId && installs.data?.results.length === 0) {
    return (
      <Empty title="No application to import for">
        <p>
          Imports are for applications: an application installed in this portal is asked for the store&apos;s data and sends it. Direct use sends its data as
          sync messages instead.
        </p>
      </Empty>
    );
  }
  return (
    <>
      <h2 id="import-form">Start an import</h2>
      <p className="muted">
        The service calls the application&apos;s import address (its webhook), the application sends the store&apos;s data in pages, and the import completes
        once every object type ended. It is followed below as it goes.
      </p>
      <form className="filters" aria-labelledby="import-form" onSubmit={(e) => void start(e)}>
        {session.appId ? (
          <p className="align-end">Application {session.appId} (the one you signed in with)</p>
        ) : (
          <InstallPicker installs={installs} what="application" value={appId} onChange={setAppId} required />
        )}
        <SelectField label="Store to import" value={storeId} onChange={setStoreId} choices={appStoreIds} />
        <button type="submit" disabled={busy || !appId} className="align-end">
          Start the import
        </button>
      </form>
      <ActionResult notice={notice} />
    </>
  );
}
