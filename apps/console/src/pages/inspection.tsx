import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { CrmAnswerLine } from '../components/crm-answer';
import { formatTime, TimeOf } from '../components/states';
import { typeLabel } from './scope';

const STATUS_TEXT: Record<ConsoleObjectInspection['status'], string> = {
  applied: 'Applied: in the CRM, no open error',
  failed: 'Failed: has an open error',
  waiting: 'Waiting for an object it references',
  archived: 'Deleted: its CRM object is archived',
  'not-processed': 'Received, not processed yet',
  unknown: 'Nothing received',
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

/** One object as the service knows it: status, links, errors, merged state, what it maps to now, and every message received. */
export function Inspection({ object }: { object: ConsoleObjectInspection }) {
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
              {/* The CRM's own address would need the portal's CRM token (a browser has none): its answers are shown below instead. */}
              {' · '}
              <a href="#crm-exchanges">See what the CRM answered for it</a>
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
              <th scope="col">Changed at (as sent)</th>
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
                <td>{message.changedAt === null ? 'not sent (receipt time counts)' : <TimeOf at={message.changedAt} />}</td>
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
