import type {
  ConsoleErrorPage,
  ConsoleErrorRecord,
  ConsoleObjectInspection,
  ConsoleRetryRequest,
  ConsoleRetryResult,
  ErrorType,
  ObjectType,
} from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { SelectField } from '../components/select-field';
import { ActionResult, Empty, ErrorState, PolledView, UpdatedAt } from '../components/states';
import { useLocation } from '../router';
import type { Session } from '../session';
import { useAction } from '../use-action';
import { usePolling } from '../use-polling';
import { ERROR_TYPES, OBJECT_TYPE_CHOICES, scopeQuery, typeLabel } from './scope';
import { useStores } from './use-stores';
import { appNames, parseStoreChoice, storeChoices, storeChoiceValue } from './store-owner';
import { useInstalls } from '../components/install-picker';
import { useRetryFollow } from './use-retry-follow';
import { bulkRetryText } from './retry-outcome';
import { ErrorItem } from './error-item';

const PAGE_SIZE = 25;
const STATUS_CHOICES = [
  ['OPEN', 'Open'],
  ['RESOLVED', 'Resolved'],
  ['ALL', 'Open and resolved'],
] as const;

interface Filter {
  /** An integrator's errors of one portal that installed the application ('' for every portal; customers: always ''). */
  portalId: string;
  /** Whose store (`direct` or an application id): with storeId, the one (owner, store) the page shows. */
  owner: string;
  storeId: string;
  objectType: string;
  errorType: string;
  status: string;
  offset: number;
}

const filterFrom = (search: string): Filter => {
  const query = new URLSearchParams(search);
  return {
    portalId: query.get('portalId') ?? '',
    owner: query.get('owner') ?? '',
    storeId: query.get('storeId') ?? '',
    objectType: query.get('objectType') ?? '',
    errorType: query.get('errorType') ?? '',
    status: query.get('status') ?? 'OPEN',
    offset: Number(query.get('offset') ?? 0) || 0,
  };
};

/** Errors: filters (store, object type, error type, open/resolved), paging, what to do, retry. */
export function ErrorsPage({ session, params, basePath }: { session: Session; params: Record<string, string>; basePath: string }) {
  const { search, navigate } = useLocation();
  const integrator = session.role === 'integrator';
  const { portalId: pickedPortal, ...narrowing } = filterFrom(search);
  const filter = { ...narrowing, portalId: integrator ? pickedPortal : '' };
  // A customer's portal is the page's; an integrator's, the one picked here (an alert's link picks it too).
  const scope = { ...scopeQuery(session, params), ...(integrator && pickedPortal ? { portalId: pickedPortal } : {}) };
  const polled = usePolling(
    () => sessionApi<ConsoleErrorPage>(session, '/console/api/v1/errors', { query: { ...narrowing, ...scope, status: filter.status, limit: PAGE_SIZE } }),
    [session.secret, search, params.portalId, params.appId],
  );
  const stores = useStores(session, params);
  const installs = useInstalls(session);
  const names = appNames(installs.data?.results);
  const { busy, notice, act, setNotice } = useAction();
  const follow = useRetryFollow(setNotice);

  const setFilter = (change: Partial<Filter>) => {
    const next = { ...filter, offset: 0, ...change };
    const query = new URLSearchParams(Object.entries(next).filter(([, value]) => value !== '' && value !== 0) as [string, string][]);
    navigate(`${basePath}/errors${query.size ? `?${query}` : ''}`);
  };

  const retry = async (request: ConsoleRetryRequest, what: string) => {
    const result = await act(
      'Retry',
      // The owner the list is narrowed to: a store id alone may name a store of the portal's own and one of an application's.
      () =>
        sessionApi<ConsoleRetryResult>(session, '/console/api/v1/errors/retry', {
          method: 'POST',
          query: { ...scope, owner: filter.owner || undefined },
          body: request,
        }),
      (sent) => bulkRetryText(sent, what),
    );
    if (result) polled.reload();
    return result;
  };

  // One object: its state is read until it says what the retry did.
  const retryOne = async (e: ConsoleErrorRecord) => {
    const what = `${typeLabel[e.objectType]} ${e.externalObjectId}`;
    const { portalId, appId, storeId, objectType, externalObjectId } = e;
    if (!(await retry({ object: { portalId, appId, storeId, objectType, externalObjectId } }, what))) return;
    const query = {
      ...scope,
      ...(appId && session.role === 'customer' ? { appId } : {}),
      ...(session.role === 'integrator' ? { portalId: String(portalId) } : {}),
      storeId,
      objectType,
      externalObjectId,
    };
    await follow(
      { what, type: e.type, erroredAt: e.erroredAt },
      () => sessionApi<ConsoleObjectInspection>(session, '/console/api/v1/objects', { query }),
      polled.reload,
    );
  };

  const portalFilter = integrator ? (
    <SelectField
      applyOnCommit
      label="Portal"
      value={filter.portalId}
      onChange={(portalId) => setFilter({ portalId })}
      first="All portals"
      choices={portalChoices(installs.data?.results ?? [], filter.portalId)}
    />
  ) : null;
  if (polled.error && [401, 403, 404].includes(polled.error.status)) {
    return (
      <>
        <h1>Errors</h1>
        {/* A link to a portal that no longer has the application: "All portals" is still at hand. */}
        {integrator && filter.portalId ? (
          <form className="filters" aria-label="Filter errors" onSubmit={(e) => e.preventDefault()}>
            {portalFilter}
          </form>
        ) : null}
        <ErrorState error={polled.error} />
      </>
    );
  }
  return (
    <>
      <h1>Errors</h1>
      <form className="filters" aria-label="Filter errors" onSubmit={(e) => e.preventDefault()}>
        {portalFilter}
        <SelectField
          applyOnCommit
          label="Store"
          value={filter.owner && filter.storeId ? storeChoiceValue(filter.owner, filter.storeId) : ''}
          onChange={(value) => setFilter({ owner: parseStoreChoice(value)?.owner ?? '', storeId: parseStoreChoice(value)?.storeId ?? '' })}
          first="All stores"
          choices={storeChoices(stores, names)}
        />
        <SelectField
          applyOnCommit
          label="Object type"
          value={filter.objectType}
          onChange={(objectType) => setFilter({ objectType })}
          first="All types"
          choices={OBJECT_TYPE_CHOICES}
        />
        <SelectField
          applyOnCommit
          label="Error type"
          value={filter.errorType}
          onChange={(errorType) => setFilter({ errorType })}
          first="All error types"
          choices={ERROR_TYPES}
        />
        <SelectField applyOnCommit label="Status" value={filter.status} onChange={(status) => setFilter({ status })} choices={STATUS_CHOICES} />
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
      <ActionResult notice={notice} takeFocus />
      <UpdatedAt at={polled.updatedAt} />
      <PolledView
        polled={polled}
        what="errors"
        isEmpty={(page) => page.results.length === 0}
        empty={
          <Empty title={filter.status === 'RESOLVED' ? 'No resolved errors' : 'No open errors'}>
            <p>
              {filter.portalId || filter.storeId || filter.objectType || filter.errorType
                ? 'Nothing matches these filters.'
                : 'Everything received so far was applied, or is still being processed.'}
            </p>
          </Empty>
        }
      >
        {(page) => (
          <>
            <ul className="errors" aria-label="Errors">
              {page.results.map((error) => (
                <ErrorItem
                  key={`${error.portalId}-${error.appId}-${error.storeId}-${error.objectType}-${error.externalObjectId}-${error.type}-${error.erroredAt}`}
                  error={error}
                  busy={busy}
                  basePath={basePath}
                  names={names}
                  onRetry={(e) => void retryOne(e)}
                />
              ))}
            </ul>
            <nav className="paging" aria-label="Pages of errors">
              <button type="button" disabled={filter.offset === 0} onClick={() => setFilter({ offset: Math.max(0, filter.offset - PAGE_SIZE) })}>
                Previous page
              </button>
              <span>
                Errors {filter.offset + 1} to {filter.offset + page.results.length}
              </span>
              <button type="button" disabled={!page.hasMore} onClick={() => setFilter({ offset: filter.offset + PAGE_SIZE })}>
                Next page
              </button>
            </nav>
          </>
        )}
      </PolledView>
    </>
  );
}

/** The portals that installed the application, and one from the page's address that is not (or not yet) among them. */
function portalChoices(installs: readonly { portalId: number }[], picked: string): [string, string][] {
  const portals = new Set(installs.map((install) => String(install.portalId)));
  if (picked) portals.add(picked);
  return [...portals].map((portalId) => [portalId, `Portal ${portalId}`]);
}
