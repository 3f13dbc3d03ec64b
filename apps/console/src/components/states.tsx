import { useEffect, useRef } from 'react';
import type { ApiError } from '../api';
import type { ActionNotice } from '../use-action';
import { keepsData, REFUSALS, type Polled } from '../use-polling';

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

/** A refusal (400, 401, 403, 404, 431) offers no "Try again": trying again cannot change it. */
export function ErrorState({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const title =
    error.status === 403 || error.status === 404
      ? 'You cannot open this page'
      : error.status === 401
        ? 'Your sign-in is no longer valid'
        : error.status === 400 || error.status === 431
          ? 'Check what you asked for'
          : 'This page could not be loaded';
  return (
    <section className="state error" role="alert" aria-label={title}>
      <h2>{title}</h2>
      <p>{error.message}</p>
      {onRetry && !REFUSALS.includes(error.status) ? (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </section>
  );
}

/**
 * A polled read as a page shows it: its error (with "Try again"), "Loading…" until the first
 * answer, `empty` when `isEmpty` says the answer holds nothing, else the data. A read that fails
 * after one answered (the gateway restarting, a proxy's moment) keeps what was read on screen,
 * and with it what is half typed in the page's forms, under a notice; a refusal replaces it.
 */
export function PolledView<T>({
  polled,
  what,
  isEmpty,
  empty,
  children,
}: {
  polled: Polled<T | undefined>;
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: React.ReactNode;
  children: (data: T) => React.ReactNode;
}) {
  if (polled.error && !keepsData(polled.error, polled.data !== undefined && polled.current)) return <ErrorState error={polled.error} onRetry={polled.reload} />;
  if (polled.data === undefined) return <Loading what={what} />;
  return (
    <>
      {polled.error ? <NotUpdated error={polled.error} at={polled.updatedAt} onRetry={polled.reload} /> : null}
      {isEmpty?.(polled.data) ? empty : children(polled.data)}
    </>
  );
}

/** Over data kept on screen when a later read failed: what failed, how old the data is, "Try again". */
export function NotUpdated({ error, at, onRetry }: { error: ApiError; at: number | undefined; onRetry: () => void }) {
  return (
    <div className="notice failed" role="alert">
      <p>This page could not be updated: {error.message}</p>
      <p>What you see was read {at ? `at ${new Date(at).toLocaleTimeString()}` : 'earlier'}; the page tries again every few seconds.</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

export function UpdatedAt({ at }: { at: number | undefined }) {
  return at ? <p className="updated">Updated {new Date(at).toLocaleTimeString()}; updates every few seconds.</p> : null;
}

export const formatTime = (at: number | null) => (at === null ? 'never' : new Date(at).toLocaleString());

/** A moment as people read it, with the exact time machine-readable and the raw number on hover. */
export const TimeOf = ({ at }: { at: number }) => (
  <time dateTime={new Date(at).toISOString()} title={String(at)}>
    {formatTime(at)}
  </time>
);

/**
 * What an action did: "done" in a polite status, a refusal as an alert with the service's message.
 * With `takeFocus`, the message takes focus when it comes: the button acted on was disabled while
 * the call ran (or is gone once it is done), so focus would otherwise fall to the top of the page.
 */
export function ActionResult({ notice, takeFocus }: { notice: ActionNotice; takeFocus?: boolean }) {
  const status = useRef<HTMLParagraphElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus && notice.text) (notice.failed ? alert : status).current?.focus();
  }, [notice, takeFocus]);
  return (
    <>
      <p className="notice" role="status" aria-live="polite" ref={status} tabIndex={takeFocus ? -1 : undefined}>
        {notice.failed ? '' : notice.text}
      </p>
      {notice.failed ? (
        <p className="notice failed" role="alert" ref={alert} tabIndex={takeFocus ? -1 : undefined}>
          {notice.text}
        </p>
      ) : null}
    </>
  );
}
