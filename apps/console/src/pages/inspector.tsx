import { useEffect, useState } from 'react';
import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { MAX_OBJECT_ID_LENGTH } from '../input-limits';
import { sessionApi } from '../api';
import { InstallPicker, useInstalls } from '../components/install-picker';
import { SelectField } from '../components/select-field';
import { Empty, ErrorState, Loading, UpdatedAt } from '../components/states';
import { useLocation } from '../router';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { Inspection } from './inspection';
import { ObjectCrmExchanges } from './inspection-crm-exchanges';
import { OBJECT_TYPE_CHOICES, scopeQuery } from './scope';
import { storeIds, useStores } from './use-stores';
import { appNames, DIRECT, ownerLabel, ownerOf } from './store-owner';

interface Lookup {
  storeId: string;
  objectType: string;
  externalObjectId: string;
  portalId: string;
  /** The tenant's application (a portal key looking at an installed application's object), '' for the portal's own: a visible choice, taken from the URL only. */
  appId: string;
}

const lookupFrom = (search: string): Lookup => {
  const query = new URLSearchParams(search);
  return {
    storeId: query.get('storeId') ?? 'default',
    objectType: query.get('objectType') ?? 'CONTACT',
    externalObjectId: query.get('externalObjectId') ?? '',
    portalId: query.get('portalId') ?? '',
    appId: query.get('appId') ?? '',
  };
};

export function InspectorPage({ session, params, basePath }: { session: Session; params: Record<string, string>; basePath: string }) {
  const { search, navigate } = useLocation();
  const asked = lookupFrom(search);
  const [draft, setDraft] = useState<Lookup>(asked);
  const stores = useStores(session, params);
  // Following a link (or going back) replaces the whole lookup, the owner included: nothing is kept from before.
  useEffect(() => setDraft(lookupFrom(search)), [search]);
  const installs = useInstalls(session);
  const names = appNames(installs.data?.results);
  // A portal key picks the owner; an application's token or key reads only its own data.
  const picksOwner = session.role === 'customer' && !session.appId;
  const shownOwner = picksOwner ? ownerOf(asked.appId) : ownerOf(session.appId);
  const storesOfOwner = stores.filter((store) => !picksOwner || ownerOf(store.appId) === ownerOf(draft.appId));
  const scope = { ...scopeQuery(session, params), ...(session.role === 'integrator' && asked.portalId ? { portalId: asked.portalId } : {}) };
  const objectQuery: Record<string, string> = {
    ...scope,
    ...(asked.appId && session.role === 'customer' ? { appId: asked.appId } : {}),
    storeId: asked.storeId,
    objectType: asked.objectType,
    externalObjectId: asked.externalObjectId,
  };
  const polled = usePolling(
    () => (asked.externalObjectId ? sessionApi<ConsoleObjectInspection>(session, '/console/api/v1/objects', { query: objectQuery }) : Promise.resolve(null)),
    [session.secret, search, params.portalId, params.appId],
  );
  const lookUp = (event: React.FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams(Object.entries(draft).filter(([, value]) => value !== '') as [string, string][]);
    navigate(`${basePath}/inspector?${query}`);
  };

  return (
    <>
      <h1>Object inspector</h1>
      <form className="filters" aria-label="Look up an object" onSubmit={lookUp}>
        {session.role === 'integrator' ? (
          <InstallPicker installs={installs} what="portal" required value={draft.portalId} onChange={(portalId) => setDraft({ ...draft, portalId })} />
        ) : null}
        {picksOwner ? (
          <SelectField
            label="Whose data"
            value={draft.appId}
            onChange={(appId) => setDraft({ ...draft, appId })}
            first={ownerLabel(DIRECT, names)}
            choices={[...new Set([...names.keys(), ...(draft.appId ? [draft.appId] : [])])].map((appId) => [appId, ownerLabel(appId, names)] as const)}
          />
        ) : null}
        <SelectField label="Store" value={draft.storeId} onChange={(storeId) => setDraft({ ...draft, storeId })} choices={storeIds(storesOfOwner, 'default')} />
        <SelectField label="Object type" value={draft.objectType} onChange={(objectType) => setDraft({ ...draft, objectType })} choices={OBJECT_TYPE_CHOICES} />
        <label>
          External id
          <input
            required
            maxLength={MAX_OBJECT_ID_LENGTH}
            value={draft.externalObjectId}
            onChange={(e) => setDraft({ ...draft, externalObjectId: e.target.value })}
          />
        </label>
        <button type="submit" className="align-end">
          Look up
        </button>
      </form>
      <p data-testid="inspector-owner" data-owner={shownOwner}>
        Showing the data of: <strong>{ownerLabel(shownOwner, names)}</strong>
        {asked.externalObjectId ? ` · store ${asked.storeId}` : ''}
      </p>
      <UpdatedAt at={asked.externalObjectId ? polled.updatedAt : undefined} />
      {!asked.externalObjectId ? (
        <Empty title="No object looked up yet">
          <p>Type the id the store sends for the object (its external id), pick its store and type, and press Look up.</p>
        </Empty>
      ) : polled.error ? (
        polled.error.status === 404 && !polled.error.message.startsWith('Application') ? (
          <Empty title="No such object">
            <p>{polled.error.message}</p>
            <p>It is not asked for again by itself: look again once the store has sent it.</p>
            <button type="button" onClick={polled.reload}>
              Look again
            </button>
          </Empty>
        ) : (
          <ErrorState error={polled.error} onRetry={polled.reload} />
        )
      ) : !polled.data ? (
        <Loading what="the object" />
      ) : (
        <>
          <Inspection object={polled.data} />
          <ObjectCrmExchanges session={session} query={objectQuery} />
        </>
      )}
    </>
  );
}
