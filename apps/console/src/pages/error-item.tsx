import type { ConsoleErrorRecord } from '@ecomm-sync/contracts';
import { CrmAnswerLine } from '../components/crm-answer';
import { formatTime } from '../components/states';
import { Link } from '../router';
import { typeLabel } from './scope';
import { ownerLabel, ownerOf } from './store-owner';

/** One error on the errors page: what failed, when, what to do, a link to the object and its Retry. */
export function ErrorItem({
  error,
  onRetry,
  busy,
  basePath,
  names,
}: {
  error: ConsoleErrorRecord;
  onRetry: (error: ConsoleErrorRecord) => void;
  busy: boolean;
  basePath: string;
  names: ReadonlyMap<string, string>;
}) {
  const id = `error-${error.storeId}-${error.objectType}-${error.externalObjectId}-${error.erroredAt}`;
  return (
    <li className={`error-item ${error.status.toLowerCase()}`} aria-labelledby={id} data-external-object-id={error.externalObjectId} data-status={error.status}>
      <h3 id={id}>
        <span className="badge">{error.status === 'OPEN' ? 'Open' : 'Resolved'}</span> {error.type} · {typeLabel[error.objectType]} {error.externalObjectId}
      </h3>
      <p className="muted">
        Store {error.storeId} · {ownerLabel(ownerOf(error.appId), names)} · portal {error.portalId} · changed <time>{formatTime(error.changedAt)}</time> ·
        failed <time>{formatTime(error.erroredAt)}</time>
      </p>
      <p className="details">{error.details}</p>
      <CrmAnswerLine crm={error.crm} />
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
      {error.status === 'OPEN' && !error.setAside ? (
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
