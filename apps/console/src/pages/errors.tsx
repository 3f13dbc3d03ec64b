import { useState } from 'react';
import type {
  ConsoleErrorPage,
  ConsoleErrorRecord,
  ConsoleOverview,
  ConsoleRetryRequest,
  ConsoleRetryResult,
  ErrorType,
  ObjectType,
} from '@ecomm-sync/contracts';
import { ApiError, sessionApi } from '../api';
import { Empty, ErrorState, formatTime, Loading, UpdatedAt } from '../components/states';
import { Link, useLocation } from '../router';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { OBJECT_TYPES, scopeQuery, typeLabel } from './scope';

const PAGE_SIZE = 25;
const ERROR_TYPES = [
  'INVALID_EMAIL_ADDRESS',
  'MISSING_REQUIRED_PROPERTY',
  'INVALID_DEAL_STAGE',
  'INVALID_ASSOCIATION_PROPERTY',
  'NO_PROPERTIES_DEFINED',
  'NO_MAPPINGS_DEFINED',
  'NO_SYNC_SETTINGS',
  'SETTINGS_NOT_ENABLED',
  'PORTAL_NOT_SYNC_ENABLED',
  'INACTIVE_PORTAL',
  'ERROR_INVALID_DATE_PROPERTY',
  'UNKNOWN_ERROR',
];

interface Filter {
  storeId: string;
  objectType: string;
  errorType: string;
  status: string;
  offset: number;
}

const filterFrom = (search: string): Filter => {
  const query = new URLSearchParams(search);
  return {
    storeId: query.get('storeId') ?? '',
    objectType: query.get('objectType') ?? '',
    errorType: query.get('errorType') ?? '',
    status: query.get('status') ?? 'OPEN',
    offset: Number(query.get('offset') ?? 0) || 0,
  };
};

function ErrorItem({
  error,
  onRetry,
  busy,
  basePath,
}: {
  error: ConsoleErrorRecord;
  onRetry: (error: ConsoleErrorRecord) => void;
  busy: boolean;
  basePath: string;
}) {
  const id = `error-${error.storeId}-${error.objectType}-${error.externalObjectId}-${error.erroredAt}`;
  return (
    <li className={`error-item ${error.status.toLowerCase()}`} aria-labelledby={id} data-external-object-id={error.externalObjectId} data-status={error.status}>
      <h3 id={id}>
        <span className="badge">{error.status === 'OPEN' ? 'Open' : 'Resolved'}</span> {error.type} · {typeLabel[error.objectType]} {error.externalObjectId}
      </h3>
      <p className="muted">
        Store {error.storeId} · portal {error.portalId}
        {error.appId ? ` · application ${error.appId}` : ''} · changed <time>{formatTime(error.changedAt)}</time> · failed{' '}
        <time>{formatTime(error.erroredAt)}</time>
      </p>
      <p className="details">{error.details}</p>
      <p>
        <strong>What to do:</strong> {error.whatToDo}
      </p>
      <p>
        <Link
          to={`${basePath}/inspector?${new URLSearchParams({ storeId: error.storeId, objectType: error.objectType, externalObjectId: error.externalObjectId, ...(error.appId ? { appId: error.appId } : {}), ...(error.appId && !basePath.includes('/portals/') ? { portalId: String(error.portalId) } : {}) })}`}
        >
          Inspect {typeLabel[error.objectType]} {error.externalObjectId}
        </Link>
      </p>
      {error.status === 'OPEN' ? (
        <button
          type="button"
          onClick={() => onRetry(error)}
          disabled={busy}
          aria-label={`Retry this object: ${typeLabel[error.objectType]} ${error.externalObjectId}`}
        >
          Retry this object
        </button>
      ) : null}
    </li>
  );
}

/** Errors: filters (store, object type, error type, open/resolved), paging, what to do, retry. */
export function ErrorsPage({ session, params, basePath }: { session: Session; params: Record<string, string>; basePath: string }) {
  const { search, navigate } = useLocation();
  const filter = filterFrom(search);
  const scope = scopeQuery(session, params);
  const polled = usePolling(
    () => sessionApi<ConsoleErrorPage>(session, '/console/api/v1/errors', { query: { ...scope, ...filter, status: filter.status, limit: PAGE_SIZE } }),
    [session.secret, search, params.portalId, params.appId],
  );
  const stores = usePolling(
    () => sessionApi<ConsoleOverview>(session, '/console/api/v1/overview', { query: scope }),
    [session.secret, params.portalId],
    30_000,
  );
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const setFilter = (change: Partial<Filter>) => {
    const next = { ...filter, offset: 0, ...change };
    const query = new URLSearchParams(Object.entries(next).filter(([, value]) => value !== '' && value !== 0) as [string, string][]);
    navigate(`${basePath}/errors${query.size ? `?${query}` : ''}`);
  };

  const retry = async (request: ConsoleRetryRequest, what: string) => {
    setBusy(true);
    setNotice('');
    try {
      const result = await sessionApi<ConsoleRetryResult>(session, '/console/api/v1/errors/retry', { method: 'POST', query: scope, body: request });
      setNotice(
        `Retry sent for ${result.objectsQueued} object${result.objectsQueued === 1 ? '' : 's'} (${what}); the list updates as they resolve.${result.more ? ' More objects have this error: retry again when these are done.' : ''}`,
      );
      polled.reload();
    } catch (error) {
      setNotice(`Retry failed: ${error instanceof ApiError ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const storeIds = [...new Set((stores.data?.stores ?? []).map((s) => s.storeId))].sort();
  if (polled.error && [401, 403, 404].includes(polled.error.status)) {
    return (
      <>
        <h1>Errors</h1>
        <ErrorState error={polled.error} />
      </>
    );
  }
  return (
    <>
      <h1>Errors</h1>
      <form className="filters" aria-label="Filter errors" onSubmit={(e) => e.preventDefault()}>
        <label>
          Store
          <select value={filter.storeId} onChange={(e) => setFilter({ storeId: e.target.value })}>
            <option value="">All stores</option>
            {storeIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Object type
          <select value={filter.objectType} onChange={(e) => setFilter({ objectType: e.target.value })}>
            <option value="">All types</option>
            {OBJECT_TYPES.map((type) => (
              <option key={type} value={type}>
                {typeLabel[type]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Error type
          <select value={filter.errorType} onChange={(e) => setFilter({ errorType: e.target.value })}>
            <option value="">All error types</option>
            {ERROR_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={filter.status} onChange={(e) => setFilter({ status: e.target.value })}>
            <option value="OPEN">Open</option>
            <option value="RESOLVED">Resolved</option>
            <option value="ALL">Open and resolved</option>
          </select>
        </label>
      </form>
      {filter.errorType && filter.status !== 'RESOLVED' ? (
        <p>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void retry(
                {
                  errorType: filter.errorType as ErrorType,
                  ...(filter.storeId ? { storeId: filter.storeId } : {}),
                  ...(filter.objectType ? { objectType: filter.objectType as ObjectType } : {}),
                },
                `every object with ${filter.errorType}`,
              )
            }
          >
            Retry every object with {filter.errorType}
          </button>
        </p>
      ) : null}
      <p className="notice" role="status" aria-live="polite">
        {notice}
      </p>
      <UpdatedAt at={polled.updatedAt} />
      {polled.error ? (
        <ErrorState error={polled.error} onRetry={polled.reload} />
      ) : polled.data === undefined ? (
        <Loading what="errors" />
      ) : polled.data.results.length === 0 ? (
        <Empty title={filter.status === 'RESOLVED' ? 'No resolved errors' : 'No open errors'}>
          <p>
            {filter.storeId || filter.objectType || filter.errorType
              ? 'Nothing matches these filters.'
              : 'Everything received so far was applied, or is still being processed.'}
          </p>
        </Empty>
      ) : (
        <>
          <ul className="errors" aria-label="Errors">
            {polled.data.results.map((error) => (
              <ErrorItem
                key={`${error.portalId}-${error.appId}-${error.storeId}-${error.objectType}-${error.externalObjectId}-${error.type}-${error.erroredAt}`}
                error={error}
                busy={busy}
                basePath={basePath}
                onRetry={(e) =>
                  void retry(
                    { object: { portalId: e.portalId, appId: e.appId, storeId: e.storeId, objectType: e.objectType, externalObjectId: e.externalObjectId } },
                    `${e.objectType} ${e.externalObjectId}`,
                  )
                }
              />
            ))}
          </ul>
          <nav className="paging" aria-label="Pages of errors">
            <button type="button" disabled={filter.offset === 0} onClick={() => setFilter({ offset: Math.max(0, filter.offset - PAGE_SIZE) })}>
              Previous page
            </button>
            <span>
              Errors {filter.offset + 1} to {filter.offset + polled.data.results.length}
            </span>
            <button type="button" disabled={!polled.data.hasMore} onClick={() => setFilter({ offset: filter.offset + PAGE_SIZE })}>
              Next page
            </button>
          </nav>
        </>
      )}
    </>
  );
}
