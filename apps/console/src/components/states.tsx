import type { ApiError } from '../api';

/** The three states every page shows besides its data. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <section className="state empty" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** A refusal (401, 403, 404) offers no "Try again": trying again cannot change it. */
export function ErrorState({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const title =
    error.status === 403 || error.status === 404
      ? 'You cannot open this page'
      : error.status === 401
        ? 'Your sign-in is no longer valid'
        : 'This page could not be loaded';
  return (
    <section className="state error" role="alert" aria-label={title}>
      <h2>{title}</h2>
      <p>{error.message}</p>
      {onRetry && ![401, 403, 404].includes(error.status) ? (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </section>
  );
}

export function UpdatedAt({ at }: { at: number | undefined }) {
  return at ? <p className="updated">Updated {new Date(at).toLocaleTimeString()}; updates every few seconds.</p> : null;
}

export const formatTime = (at: number | null) => (at === null ? 'never' : new Date(at).toLocaleString());
