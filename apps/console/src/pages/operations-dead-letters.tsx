import type { ConsoleDeadLetters } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { Empty, formatTime, PolledView, TimeOf } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';

/** Headers that hold a moment (x-accepted-at, x-redriven-at, ...) as epoch milliseconds: shown as a date. */
const isTimeHeader = (name: string, value: unknown): value is number =>
  name.endsWith('-at') && typeof value === 'number' && Number.isFinite(value) && value > 0;

/** The dead-lettered messages of one queue, peeked (they stay in the queue), with headers and bodies. */
export function DeadLetters({ session, queue, onClose }: { session: Session; queue: string; onClose: () => void }) {
  const polled = usePolling(
    () => sessionApi<ConsoleDeadLetters>(session, `/console/api/v1/ops/queues/${encodeURIComponent(queue)}/dead-letters`, { query: { limit: 20 } }),
    [session.secret, queue],
    5000,
  );
  const id = `dead-letters-${queue.replace(/\W/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>Dead letters of {queue}</h2>
      <p className="muted">Read without taking them out of the queue; redrive moves them all back.</p>
      <button type="button" onClick={onClose}>
        Close the dead letters of {queue}
      </button>
      <PolledView
        polled={polled}
        what="the dead letters"
        isEmpty={(letters) => letters.results.length === 0}
        empty={
          <Empty title="No dead letters">
            <p>Nothing failed for good in {queue}.</p>
          </Empty>
        }
      >
        {(letters) => (
          <>
            <p>
              Showing {letters.results.length} of {letters.total}.
            </p>
            <ol className="dead-letters">
              {letters.results.map((message, n) => (
                <li key={`${message.messageId ?? 'none'}-${n}`} className="error-item" data-message-id={message.messageId ?? ''}>
                  <h3>Message {message.messageId ?? '(no id)'}</h3>
                  <p className="muted">
                    {message.contentType ?? 'no content type'}
                    {message.timestamp ? (
                      <>
                        {' '}
                        · published <time>{formatTime(message.timestamp)}</time>
                      </>
                    ) : null}
                  </p>
                  <h4>Headers</h4>
                  <dl className="headers">
                    {Object.entries(message.headers).map(([name, value]) => (
                      <div key={name}>
                        <dt>{name}</dt>
                        <dd>{isTimeHeader(name, value) ? <TimeOf at={value} /> : typeof value === 'string' ? value : JSON.stringify(value)}</dd>
                      </div>
                    ))}
                  </dl>
                  <h4>Body{message.truncated ? ' (cut)' : ''}</h4>
                  <pre className="details" tabIndex={0} aria-label={`Body of message ${message.messageId ?? n + 1}`}>
                    {message.body}
                  </pre>
                </li>
              ))}
            </ol>
          </>
        )}
      </PolledView>
    </section>
  );
}
