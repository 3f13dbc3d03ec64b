import { useState } from 'react';
import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { InstallPicker, useInstalls } from '../components/install-picker';
import { CrmAnswerLine } from '../components/crm-answer';
import { SelectField } from '../components/select-field';
import { Empty, ErrorState, formatTime, Loading, UpdatedAt } from '../components/states';
import { useLocation } from '../router';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { OBJECT_TYPE_CHOICES, scopeQuery, typeLabel } from './scope';
import { storeIds, useStores } from './use-stores';

const STATUS_TEXT: Record<ConsoleObjectInspection['status'], string> = {
  applied: 'Applied: in the CRM, no open error',
  failed: 'Failed: has an open error',
  waiting: 'Waiting for an object it references',
  archived: 'Deleted: its CRM object is archived',
  'not-processed': 'Received, not processed yet',
  unknown: 'Nothing received',
};

interface Lookup {
  storeId: string;
  objectType: string;
  externalObjectId: string;
  portalId: string;
  /** The tenant's application (a portal key looking at an installed application's object); kept from the link that opened the page. */
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

const show = (value: unknown) => (value === null ? '(cleared)' : typeof value === 'string' ? value : JSON.stringify(value));

function PropertyTable({ caption, rows }: { caption: string; rows: [string, React.ReactNode, React.ReactNode?][] }) {
  if (rows.length === 0) return <p>{caption}: none.</p>;
  const timed = rows.some((row) => row.length > 2);
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Property</th>
          <th scope="col">Value</th>
          {timed ? <th scope="col">Changed at</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, value, at]) => (
          <tr key={name} data-property={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
            {timed ? <td>{at}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Inspection({ object }: { object: ConsoleObjectInspection }) {
  return (
    <>
      <section className="card" aria-labelledby="inspected-status">
        <h2 id="inspected-status">
          {typeLabel[object.objectType]} {object.externalObjectId} <span className="muted">in store {object.storeId}</span>
        </h2>
        <p>
          <strong>Sync status:</strong>{' '}
          <span data-testid="sync-status" data-status={object.status}>
            {STATUS_TEXT[object.status]}
          </span>
        </p>
        <p>
          <strong>CRM object:</strong>{' '}
          {object.crm ? (
            <>
              <span data-testid="crm-id">{object.crm.id}</span>
              {object.crm.archived ? ' (archived)' : ''} · last processed <time>{formatTime(object.crm.lastProcessedAt)}</time>
              {object.crm.link ? (
                <>
                  {' · '}
                  <a href={object.crm.link} target="_blank" rel="noreferrer">
                    Open in the built-in CRM (its API; needs the portal&apos;s CRM token)
                  </a>
                </>
              ) : null}
            </>
          ) : (
            'not created yet'
          )}
        </p>
        <p className="muted">
          Portal {object.portalId} · {object.appId ? `application ${object.appId}` : 'direct use'}
        </p>
      </section>
      <section className="card" aria-labelledby="error-history">
        <h2 id="error-history">Error history</h2>
        {object.errors.length === 0 ? (
          <p>No errors.</p>
        ) : (
          <ul className="errors">
            {object.errors.map((error) => (
              <li
                key={`${error.type}-${error.erroredAt}`}
                className={`error-item ${error.status.toLowerCase()}`}
                data-error-type={error.type}
                data-status={error.status}
              >
                <h3>
                  <span className="badge">{error.status === 'OPEN' ? 'Open' : 'Resolved'}</span> {error.type} · failed{' '}
                  <time>{formatTime(error.erroredAt)}</time>
                </h3>
                <p className="details">{error.details}</p>
                <CrmAnswerLine crm={error.crm} />
                <p>
                  <strong>What to do:</strong> {error.whatToDo}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="mapped-now">
        <h2 id="mapped-now">Mapped with the settings in force</h2>
        {object.mapped ? (
          <>
            <PropertyTable caption="CRM properties" rows={Object.entries(object.mapped.properties).map(([name, value]) => [name, show(value)])} />
            {object.mapped.problems.map((problem) => (
              <p key={problem.details} className="form-error">
                {problem.type}: {problem.details}
              </p>
            ))}
          </>
        ) : (
          <p>No merged state yet.</p>
        )}
      </section>
      <section className="card" aria-labelledby="merged-state">
        <h2 id="merged-state">Merged state</h2>
        {object.merged ? (
          <PropertyTable
            caption={object.merged.live ? 'Sender properties (newest change of each wins)' : 'Sender properties (deleted)'}
            rows={Object.entries(object.merged.properties).map(([name, entry]) => [
              name,
              show(entry.value),
              <time key="t">{formatTime(entry.changedAt)}</time>,
            ])}
          />
        ) : (
          <p>No merged state yet.</p>
        )}
      </section>
      <section className="card" aria-labelledby="raw-messages">
        <h2 id="raw-messages">
          Messages received ({object.messages.length}
          {object.moreMessages ? ', newest shown' : ''})
        </h2>
        <table>
          <caption>Every message as received, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">changedAt</th>
              <th scope="col">Action</th>
              <th scope="col">Properties</th>
            </tr>
          </thead>
          <tbody>
            {object.messages.map((message, index) => (
              <tr key={`${message.receivedAt}-${index}`} data-testid="raw-message">
                <td>
                  <time>{formatTime(message.receivedAt)}</time>
                </td>
                <td>{message.changedAt === null ? 'not sent (receipt time counts)' : message.changedAt}</td>
                <td>{message.action}</td>
                <td className="details">{JSON.stringify(message.properties)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** Object inspector: look up an external id; its status, CRM id, messages, merged state, mapping and errors. */
export function InspectorPage({ session, params, basePath }: { session: Session; params: Record<string, string>; basePath: string }) {
  const { search, navigate } = useLocation();
  const asked = lookupFrom(search);
  const [draft, setDraft] = useState<Lookup>(asked);
  const installs = useInstalls(session);
  const scope = { ...scopeQuery(session, params), ...(session.role === 'integrator' && asked.portalId ? { portalId: asked.portalId } : {}) };
  const stores = useStores(session, params);
  const polled = usePolling(
    () =>
      asked.externalObjectId
        ? sessionApi<ConsoleObjectInspection>(session, '/console/api/v1/objects', {
            query: {
              ...scope,
              ...(asked.appId && session.role === 'customer' ? { appId: asked.appId } : {}),
              storeId: asked.storeId,
              objectType: asked.objectType,
              externalObjectId: asked.externalObjectId,
            },
          })
        : Promise.resolve(null),
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
        <SelectField label="Store" value={draft.storeId} onChange={(storeId) => setDraft({ ...draft, storeId })} choices={storeIds(stores, 'default')} />
        <SelectField label="Object type" value={draft.objectType} onChange={(objectType) => setDraft({ ...draft, objectType })} choices={OBJECT_TYPE_CHOICES} />
        <label>
          External id
          <input required value={draft.externalObjectId} onChange={(e) => setDraft({ ...draft, externalObjectId: e.target.value })} />
        </label>
        <button type="submit" className="align-end">
          Look up
        </button>
      </form>
      <UpdatedAt at={asked.externalObjectId ? polled.updatedAt : undefined} />
      {!asked.externalObjectId ? (
        <Empty title="No object looked up yet">
          <p>Type the id the store sends for the object (its external id), pick its store and type, and press Look up.</p>
        </Empty>
      ) : polled.error ? (
        polled.error.status === 404 && !polled.error.message.startsWith('Application') ? (
          <Empty title="No such object">
            <p>{polled.error.message}</p>
          </Empty>
        ) : (
          <ErrorState error={polled.error} onRetry={polled.reload} />
        )
      ) : !polled.data ? (
        <Loading what="the object" />
      ) : (
        <Inspection object={polled.data} />
      )}
    </>
  );
}
