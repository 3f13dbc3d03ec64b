import { useState } from 'react';
import type { ConsoleQueueStats } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { ActionResult, Empty, PolledView, UpdatedAt } from '../components/states';
import type { Session } from '../session';
import { useAction } from '../use-action';
import { useFollow } from '../use-follow';
import { usePolling } from '../use-polling';
import { DeadLetters } from './operations-dead-letters';
import { CrmFailures } from './operations-crm-failures';
import { CrmAccounts, ServicesReadiness } from './operations-health';
import { redriveOutcome, type QueueCounts } from './redrive-outcome';

/** After a redrive, the queue's counts are read every second, for at most 20 s, until they settle. */
const FOLLOW_EVERY_MS = 1000;
const FOLLOW_AT_MOST_MS = 20_000;

const showId = (queue: string) => `show-dead-letters-${queue.replace(/\W/g, '-')}`;

/** The operator's view: each queue's depth and consumers, dead letters (peeked) with redrive, services' readiness, CRM budgets and failed CRM exchanges. */
export function OperationsPage({ session }: { session: Session }) {
  const polled = usePolling(() => sessionApi<{ results: ConsoleQueueStats[] }>(session, '/console/api/v1/ops/queues'), [session.secret]);
  const { busy, notice, act, setNotice } = useAction();
  const follow = useFollow(setNotice, FOLLOW_EVERY_MS, FOLLOW_AT_MOST_MS);
  const [opened, setOpened] = useState<string>();

  // Closing the dead letters gives focus back to the button that showed them, not to the top of the page.
  const close = (queue: string) => {
    document.getElementById(showId(queue))?.focus();
    setOpened(undefined);
  };

  // The moved messages may fail again and come back: the queue's counts are read until they settle, and the notice says what happened.
  const redrive = async (queue: string) => {
    const result = await act(
      `Redrive of ${queue}`,
      () => sessionApi<{ moved: number }>(session, `/console/api/v1/ops/queues/${encodeURIComponent(queue)}/redrive`, { method: 'POST' }),
      ({ moved }) => redriveOutcome(queue, moved, [], false).text,
    );
    if (!result) return;
    polled.reload();
    const reads: QueueCounts[] = [];
    const read = async () => {
      const { results } = await sessionApi<{ results: ConsoleQueueStats[] }>(session, '/console/api/v1/ops/queues');
      const counts = results.find((q) => q.queue === queue);
      if (counts) reads.push(counts);
      return reads;
    };
    if (result.moved > 0) await follow(read, (now, stoppedWaiting) => redriveOutcome(queue, result.moved, now ?? reads, stoppedWaiting), polled.reload);
  };

  return (
    <>
      <h1>Operations</h1>
      <UpdatedAt at={polled.updatedAt} />
      <ActionResult notice={notice} takeFocus />
      <PolledView
        polled={polled}
        what="the queues"
        isEmpty={(queues) => queues.results.length === 0}
        empty={
          <Empty title="No queues">
            <p>No service has declared its queues on this broker yet.</p>
          </Empty>
        }
      >
        {(queues) => (
          <table>
            <caption>Queues</caption>
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col">Ready messages</th>
                <th scope="col">Consumers</th>
                <th scope="col">Waiting to retry</th>
                <th scope="col">Dead letters</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {queues.results.map((queue) => (
                <tr key={queue.queue} data-queue={queue.queue}>
                  <th scope="row">{queue.queue}</th>
                  <td>
                    {queue.depth}
                    {queue.bulkDepth > 0 ? ` (${queue.bulkDepth} bulk)` : ''}
                  </td>
                  <td className={queue.consumers === 0 ? 'warn' : undefined}>{queue.consumers}</td>
                  <td>{queue.retrying}</td>
                  <td data-dead-letters>{queue.deadLetters}</td>
                  <td className="actions">
                    <button
                      type="button"
                      disabled={queue.deadLetters === 0}
                      id={showId(queue.queue)}
                      aria-expanded={opened === queue.queue}
                      onClick={() => setOpened(opened === queue.queue ? undefined : queue.queue)}
                      aria-label={`Show the dead letters of ${queue.queue}`}
                    >
                      Show
                    </button>{' '}
                    <button
                      type="button"
                      disabled={queue.deadLetters === 0 || busy}
                      onClick={() => void redrive(queue.queue)}
                      aria-label={`Redrive the dead letters of ${queue.queue}`}
                    >
                      Redrive
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PolledView>
      {opened ? <DeadLetters key={opened} session={session} queue={opened} onClose={() => close(opened)} /> : null}
      <h2>Services</h2>
      <ServicesReadiness session={session} />
      <h2>CRM accounts</h2>
      <CrmAccounts session={session} />
      <h2>Failed CRM exchanges (last 7 days)</h2>
      <CrmFailures session={session} />
    </>
  );
}
