import { useState } from 'react';
import type { ConsoleActivity } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { countNoun } from '../count-noun';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { ErrorState, Loading } from './states';

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { left: 40, bottom: 28, top: 10 };

const label = (at: number, window: 'hour' | 'day') =>
  new Date(at).toLocaleTimeString([], window === 'hour' ? { hour: '2-digit', minute: '2-digit' } : { hour: '2-digit' });

/** Messages received and objects applied per bucket, as paired bars in plain SVG, with the same numbers in a table for screen readers. */
export function ActivityChart({ session, query }: { session: Session; query: Record<string, string | undefined> }) {
  const [window, setWindow] = useState<'hour' | 'day'>('hour');
  const polled = usePolling(
    () => sessionApi<ConsoleActivity>(session, '/console/api/v1/activity', { query: { ...query, window } }),
    [session.secret, window, query.portalId],
    10_000,
  );
  const data = polled.data?.window === window ? polled.data : undefined;
  const totals = data
    ? data.buckets.reduce((sum, b) => ({ received: sum.received + b.received, applied: sum.applied + b.applied }), { received: 0, applied: 0 })
    : undefined;
  const max = data ? Math.max(1, ...data.buckets.flatMap((b) => [b.received, b.applied])) : 1;
  const slot = data ? (WIDTH - PAD.left) / data.buckets.length : 0;
  const bar = Math.max(2, slot / 2 - 3);
  const y = (n: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - n / max);
  // A refusal is the page's to show (the overview says it once), not the chart's too.
  if (polled.error && [401, 403, 404].includes(polled.error.status)) return null;

  return (
    <section className="card" aria-labelledby="activity-title">
      <h2 id="activity-title">Messages received and applied</h2>
      <fieldset className="choice-row">
        <legend>Period</legend>
        {(['hour', 'day'] as const).map((w) => (
          <label key={w} className="choice">
            <input type="radio" name="activity-window" value={w} checked={window === w} onChange={() => setWindow(w)} />
            Last {w}
          </label>
        ))}
      </fieldset>
      {polled.error ? (
        <ErrorState error={polled.error} onRetry={polled.reload} />
      ) : !data || !totals ? (
        <Loading what="the activity" />
      ) : (
        <>
          <p data-activity-totals>
            Last {window}: <strong data-received-total>{totals.received}</strong> {countNoun(totals.received, 'message')} received,{' '}
            <strong data-applied-total>{totals.applied}</strong> {countNoun(totals.applied, 'object')} applied
            {data.partial ? ' (at least: more than one read counts)' : ''}. An object counts as applied once, at its last processed time, when it is in the CRM
            with no open error (the meaning the tables use).
          </p>
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            role="img"
            aria-label={`Bar chart of the last ${window}: ${totals.received} received, ${totals.applied} applied; the table below has the numbers.`}
            className="chart"
          >
            <line x1={PAD.left} x2={WIDTH} y1={y(0)} y2={y(0)} stroke="#8a93a6" />
            <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize="11" fill="#4f5869">
              {max}
            </text>
            <text x={PAD.left - 6} y={y(0)} textAnchor="end" fontSize="11" fill="#4f5869">
              0
            </text>
            {data.buckets.map((b, n) => {
              const x = PAD.left + n * slot + 2;
              return (
                <g key={b.from}>
                  <rect x={x} y={y(b.received)} width={bar} height={y(0) - y(b.received)} fill="#1a4fb5" />
                  <rect x={x + bar + 1} y={y(b.applied)} width={bar} height={y(0) - y(b.applied)} fill="#15803d" />
                  {n % (window === 'hour' ? 2 : 3) === 0 ? (
                    <text x={x} y={HEIGHT - 8} fontSize="11" fill="#4f5869">
                      {label(b.from, window)}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </svg>
          <p className="legend">
            <span className="swatch received" aria-hidden="true" /> received <span className="swatch applied" aria-hidden="true" /> applied
          </p>
          <details>
            <summary>The numbers</summary>
            <table>
              <caption>Messages received and objects applied per {window === 'hour' ? '5 minutes' : 'hour'}</caption>
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">Received</th>
                  <th scope="col">Applied</th>
                </tr>
              </thead>
              <tbody>
                {data.buckets.map((b) => (
                  <tr key={b.from}>
                    <th scope="row">{label(b.from, window)}</th>
                    <td>{b.received}</td>
                    <td>{b.applied}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
