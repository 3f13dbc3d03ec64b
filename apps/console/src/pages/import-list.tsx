import { useState } from 'react';
import type { ConsoleImportPage, ConsoleImportSummary } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { countNoun } from '../count-noun';
import { Empty, formatTime, PolledView } from '../components/states';
import { Link } from '../router';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import type { FollowedImport } from './import-progress';
import { scopeQuery } from './scope';
import { ownerLabel } from './store-owner';

const PAGE_SIZE = 10;

const STATE_TEXT: Record<ConsoleImportSummary['status'], string> = {
  initialized: 'Started',
  receiving: 'Receiving',
  complete: 'Complete',
  failed: 'Failed',
};

/** The address of an import's progress on the stores page (what ImportProgress follows). */
export const followQuery = (followed: FollowedImport) =>
  new URLSearchParams({ import: followed.importStartedAt, store: followed.storeId, app: followed.appId }).toString();

function Items({ found }: { found: ConsoleImportSummary }) {
  return (
    <>
      {found.itemsReceived}
      {found.expectedCount !== null ? ` of ${found.expectedCount} expected` : ''}
    </>
  );
}

/**
 * The imports within the credential's scope, newest first (those started through the API too),
 * each linking to its progress; the one followed is marked.
 */
export function ImportList({
  session,
  params,
  path,
  followed,
  names,
}: {
  session: Session;
  params: Record<string, string>;
  /** The stores page's path: each import's link follows it there. */
  path: string;
  followed: FollowedImport | null;
  names: ReadonlyMap<string, string>;
}) {
  const [offset, setOffset] = useState(0);
  const polled = usePolling(
    () => sessionApi<ConsoleImportPage>(session, '/console/api/v1/imports', { query: { ...scopeQuery(session, params), offset, limit: PAGE_SIZE } }),
    // An import started on the page (it is then followed) is listed at once, not at the next read.
    [session.secret, params.portalId, offset, followed?.importStartedAt],
    // As often as the followed import's progress, so the two agree.
    followed ? 2000 : 5000,
  );
  const isFollowed = (found: ConsoleImportSummary) =>
    followed !== null && followed.importStartedAt === String(found.importStartedAt) && followed.storeId === found.storeId && followed.appId === found.appId;
  return (
    <>
      <h2>Imports</h2>
      <PolledView
        polled={polled}
        what="the imports"
        isEmpty={(page) => page.results.length === 0 && page.offset === 0}
        empty={
          <Empty title="No imports yet">
            <p>An import started here or through the API is listed here, newest first.</p>
          </Empty>
        }
      >
        {(page) => (
          <>
            <table>
              <caption>Imports, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  {session.appId ? null : <th scope="col">Application</th>}
                  <th scope="col">Store</th>
                  <th scope="col">State</th>
                  <th scope="col">Items received</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Progress</th>
                </tr>
              </thead>
              <tbody>
                {page.results.map((found) => {
                  const to = { importStartedAt: String(found.importStartedAt), storeId: found.storeId, appId: found.appId };
                  const started = formatTime(found.importStartedAt);
                  return (
                    <tr key={`${found.portalId}-${found.appId}-${found.storeId}-${found.importStartedAt}`} data-import-row={found.importStartedAt}>
                      <th scope="row">{started}</th>
                      {session.appId ? null : <td>{ownerLabel(found.appId, names)}</td>}
                      <td>{found.storeId}</td>
                      <td data-import-state={found.status} className={found.status === 'failed' || found.releaseProblem ? 'warn' : undefined}>
                        {STATE_TEXT[found.status]}
                        {found.failureReason ? `: ${found.failureReason}` : ''}
                        {found.releaseProblem
                          ? `; handing its objects to the sync failed ${found.releaseProblem.tries} ${countNoun(found.releaseProblem.tries, 'time')} since ${formatTime(found.releaseProblem.since)} (${found.releaseProblem.reason})`
                          : ''}
                      </td>
                      <td>
                        <Items found={found} />
                      </td>
                      <td>{found.completedAt === null ? '—' : formatTime(found.completedAt)}</td>
                      <td>
                        <Link
                          to={`${path}?${followQuery(to)}`}
                          aria-current={isFollowed(found) ? 'true' : undefined}
                          aria-label={`${isFollowed(found) ? 'Shown below' : 'Show progress'}: import of store ${found.storeId} started ${started}`}
                        >
                          {isFollowed(found) ? 'Shown below' : 'Show progress'}
                        </Link>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <p>
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                Newer imports
              </button>{' '}
              <button type="button" disabled={!page.hasMore} onClick={() => setOffset(offset + PAGE_SIZE)}>
                Older imports
              </button>
            </p>
          </>
        )}
      </PolledView>
    </>
  );
}
