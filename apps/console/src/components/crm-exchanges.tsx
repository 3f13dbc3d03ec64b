import type { ConsoleCrmExchange, ConsoleCrmExchangeMessage } from '@ecomm-sync/contracts';
import { TimeOf } from './states';

/** What an answer's status says, in words (null: no answer). */
const outcomeOf = (exchange: ConsoleCrmExchange): string => {
  const { status } = exchange;
  if (status === null) return `no answer: ${exchange.error ?? 'unknown'}`;
  if (status === 207) return '207 partial: some inputs refused';
  if (status === 429) return '429 rate-limited';
  return String(status);
};

/** A pretty-printed body when it is whole JSON, else the text as kept. */
const shown = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

function Message({ title, message, label }: { title: string; message: ConsoleCrmExchangeMessage; label: string }) {
  const headers = Object.entries(message.headers);
  return (
    <>
      <h4>{title}</h4>
      {headers.length > 0 ? (
        <dl className="headers">
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {message.body === null ? (
        <p className="muted">No body.</p>
      ) : (
        <>
          {message.truncated ? <p className="muted">Cut at 16 KB of {message.bytes} bytes.</p> : null}
          <pre className="details" tabIndex={0} aria-label={label}>
            {shown(message.body)}
          </pre>
        </>
      )}
    </>
  );
}

/**
 * CRM exchanges as the request log kept them (decision 0051): when, what was sent, what the CRM
 * answered, how long it took and its correlation id; the redacted headers and bodies on demand.
 */
export function CrmExchangeTable({ exchanges, caption, showAccount = false }: { exchanges: ConsoleCrmExchange[]; caption: string; showAccount?: boolean }) {
  return (
    <table className="crm-exchanges">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Sent</th>
          {showAccount ? <th scope="col">Portal</th> : null}
          <th scope="col">Request</th>
          <th scope="col">Answer</th>
          <th scope="col">Duration</th>
          <th scope="col">Correlation id</th>
        </tr>
      </thead>
      {exchanges.map((exchange) => (
        <tbody key={exchange.id} data-testid="crm-exchange" data-status={exchange.status ?? 'none'} data-failed={exchange.failed}>
          <tr>
            <td>
              <TimeOf at={exchange.at} />
            </td>
            {showAccount ? <td>{exchange.portalId ?? 'several'}</td> : null}
            <td>
              <code>
                {exchange.method} {exchange.path}
              </code>
              {exchange.attempt > 1 ? <span className="muted"> (try {exchange.attempt})</span> : null}
            </td>
            <td className={exchange.failed ? 'warn' : undefined}>{outcomeOf(exchange)}</td>
            <td>{exchange.durationMs} ms</td>
            <td data-correlation-id>{exchange.correlationId ? <code>{exchange.correlationId}</code> : <span className="muted">none</span>}</td>
          </tr>
          <tr className="exchange-bodies">
            <td colSpan={showAccount ? 6 : 5}>
              <details>
                <summary>Request and answer (secrets removed)</summary>
                <Message title="Request" message={exchange.request} label={`Request body of ${exchange.method} ${exchange.path}`} />
                <Message title="Answer" message={exchange.answer} label={`Answer body of ${exchange.method} ${exchange.path}`} />
              </details>
            </td>
          </tr>
        </tbody>
      ))}
    </table>
  );
}
