import type { ImportView } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { formatTime, PolledView, UpdatedAt } from '../components/states';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { countNoun } from '../count-noun';
import { OBJECT_TYPES, typeLabel } from './scope';

/** The import a page follows, from its URL: `?import=<importStartedAt>&store=<storeId>&app=<appId>`. */
export interface FollowedImport {
  importStartedAt: string;
  storeId: string;
  appId: string;
}

const STATUS_TEXT: Record<ImportView['status'], string> = {
  initialized: 'Started: the webhook asks the application to send its data',
  receiving: 'Receiving pages from the application',
  complete: 'Complete',
  failed: 'Failed',
};

function Outcome({ view }: { view: ImportView }) {
  if (view.status === 'failed') {
    return (
      <p className="notice failed" role="alert" data-failure-reason>
        Why it failed: {view.failureReason ?? 'no reason was recorded'}. Fix it (for a webhook, the application&apos;s address or its answer) and start a new
        import.
      </p>
    );
  }
  const problem = view.webhook.problem && (
    <p className="notice warn" data-webhook-problem>
      The webhook failed after pages arrived ({view.webhook.problem.reason}, {formatTime(view.webhook.problem.at)}); the import{' '}
      {view.status === 'complete' ? 'went' : 'goes'} on with the pages sent (an object type without an answered count has no expected count).
    </p>
  );
  if (view.status !== 'complete')
    return (
      <>
        {problem}
        <p className="help">Each object type ends when the application sends its end with the counts it sent; the import completes when all four ended.</p>
      </>
    );
  const stalled = view.releaseProblem && view.releasedAt === null && (
    <p className="notice warn" data-release-problem>
      Handing its objects to the sync has failed since {formatTime(view.releaseProblem.since)}, {view.releaseProblem.tries}{' '}
      {countNoun(view.releaseProblem.tries, 'try', 'tries')} in a row (the last {formatTime(view.releaseProblem.at)}):{' '}
      {view.releaseProblem.reason.replace(/\.$/, '')}. It is tried again about every 30 seconds from where it stopped; nothing received is lost.
    </p>
  );
  // A webhook problem stays said once the import completed: its expected counts stay unknown.
  return (
    <>
      {problem}
      {stalled}
      <p className="help">
        Completed {formatTime(view.completedAt)};{' '}
        {view.releasedAt === null
          ? 'its objects are being handed to the sync.'
          : `its objects were handed to the sync ${formatTime(view.releasedAt)} (see the overview for their progress).`}
      </p>
    </>
  );
}

/** One import followed by polling: its status, expected counts, pages and items per type, webhook attempts, failure reason. */
export function ImportProgress({ session, followed }: { session: Session; followed: FollowedImport }) {
  // An OAuth token is the application itself; the portal's key names the application.
  const query = { storeId: followed.storeId, appId: session.appId ? undefined : followed.appId };
  const polled = usePolling(
    () => sessionApi<ImportView>(session, `/extensions/ecomm/v2/imports/${encodeURIComponent(followed.importStartedAt)}`, { query }),
    [session.secret, followed.importStartedAt, followed.storeId, followed.appId],
    2000,
  );
  const heading = `Import started ${formatTime(Number(followed.importStartedAt))} · store ${followed.storeId}${session.appId ? '' : ` · application ${followed.appId}`}`;
  return (
    <PolledView polled={polled} what="the import">
      {(view) => (
        <section className="card" aria-labelledby="followed-import" data-import={view.importStartedAt}>
          <h2 id="followed-import">{heading}</h2>
          <UpdatedAt at={polled.updatedAt} />
          <p className="status-line">
            Status: <strong data-import-status={view.status}>{STATUS_TEXT[view.status]}</strong>
          </p>
          <Outcome view={view} />
          <table>
            <caption>Progress per object type</caption>
            <thead>
              <tr>
                <th scope="col">Object type</th>
                <th scope="col">Expected (the application&apos;s estimate)</th>
                <th scope="col">Pages received</th>
                <th scope="col">Items received</th>
                <th scope="col">Ended</th>
              </tr>
            </thead>
            <tbody>
              {OBJECT_TYPES.filter((type) => view.objectTypes[type]).map((type) => {
                const state = view.objectTypes[type]!;
                return (
                  <tr key={type} data-type={type}>
                    <th scope="row">{typeLabel[type]}</th>
                    <td data-expected>{state.expectedCount ?? 'not known'}</td>
                    <td data-pages>{state.pagesReceived}</td>
                    <td data-items>{state.itemsReceived}</td>
                    <td data-ended>{state.ended ? 'yes' : 'no'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {view.webhook.attempts.length === 0 ? (
            <p>No webhook attempt yet: the service is about to call {view.webhook.uri}.</p>
          ) : (
            <table>
              <caption>Webhook attempts to {view.webhook.uri}</caption>
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">At</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Took</th>
                </tr>
              </thead>
              <tbody>
                {view.webhook.attempts.map((attempt) => (
                  <tr key={attempt.attempt} data-attempt={attempt.attempt}>
                    <th scope="row">{attempt.attempt}</th>
                    <td>{formatTime(attempt.at)}</td>
                    <td data-answer className={attempt.status !== null && attempt.status < 300 ? undefined : 'warn'}>
                      {attempt.status !== null ? `HTTP ${attempt.status}` : `no answer (${attempt.error ?? 'unknown'})`}
                      {attempt.status !== null && attempt.error ? ` · ${attempt.error}` : ''}
                    </td>
                    <td>{attempt.durationMs} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </PolledView>
  );
}
