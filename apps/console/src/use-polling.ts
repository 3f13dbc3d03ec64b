import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** When the data was last read (shown as "updated at"). */
  updatedAt: number | undefined;
  /** Whether `data` was read for what is asked now (false while another page or filter's answer is still shown). */
  current: boolean;
  reload: () => void;
}

/** Answers that asking again unchanged cannot turn (the same list ErrorState offers no "Try again" for). */
export const REFUSALS: readonly number[] = [400, 401, 403, 404, 431];

/**
 * Whether a page keeps what it read on screen when a later read of the same thing fails with
 * `error`: yes for a failure that asking again may mend (a 5xx, no answer, a 429), so nothing half
 * typed in its forms is lost; not for a refusal, which says the data is no longer the viewer's to
 * see, nor when what is shown was read for another page or filter.
 */
export function keepsData(error: ApiError, hasCurrentData: boolean): boolean {
  return hasCurrentData && !REFUSALS.includes(error.status);
}

type PolledState<T> = Omit<Polled<T>, 'reload'>;

/**
 * What a page shows while a read is asked: nothing of another owner's data (`otherOwner`); what was
 * read for another page or filter (`askedAnew`) until the answer, neither current nor under its
 * error; else what it showed, with its error, until the same read answers again.
 */
export function whileAsking<T>(previous: PolledState<T>, { otherOwner, askedAnew }: { otherOwner: boolean; askedAnew: boolean }): PolledState<T> {
  if (otherOwner) return { data: undefined, error: undefined, loading: true, updatedAt: undefined, current: false };
  if (askedAnew) return { ...previous, error: undefined, loading: true, current: false };
  return { ...previous, loading: true };
}

/**
 * Reads now, then every `intervalMs` while the page is open: pages update without a reload. When
 * `deps` change, what was read stays on screen until the new read answers (paging, following an
 * import), unless `resetWhen` changed too: what identifies whose data it is (the portal an
 * integrator picked), so that one portal's figures are never shown under another's name.
 */
export function usePolling<T>(read: () => Promise<T>, deps: readonly unknown[], intervalMs = 3000, resetWhen: readonly unknown[] = []): Polled<T> {
  const [state, setState] = useState<PolledState<T>>({ data: undefined, error: undefined, loading: true, updatedAt: undefined, current: false });
  const readRef = useRef(read);
  readRef.current = read;
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const readFor = useRef<readonly unknown[]>(resetWhen);
  const askedFor = useRef<readonly unknown[]>(deps);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let refused = false;
      try {
        const data = await readRef.current();
        if (!cancelled) setState({ data, error: undefined, loading: false, updatedAt: Date.now(), current: true });
      } catch (error) {
        const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
        refused = REFUSALS.includes(failure.status);
        if (!cancelled) setState((previous) => ({ ...previous, error: failure, loading: false }));
      }
      // A refusal would only be refused again: the page stops asking until it is reloaded or asks anew.
      // run catches every failure of the read and shows it through the state: nothing to await.
      if (!cancelled && !refused) timer = setTimeout(() => void run(), intervalMs);
    };
    // Asked for someone else's data: what was read for the last one is not shown under the new name.
    const changed = !sameKeys(resetWhen, readFor.current);
    readFor.current = resetWhen;
    // Asked for something else (another page, a filter): what is shown meanwhile is not its answer.
    const askedAnew = !sameKeys(deps, askedFor.current);
    askedFor.current = deps;
    setState((previous) => whileAsking(previous, { otherOwner: changed, askedAnew }));
    void run();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [...deps, tick, intervalMs]);

  return { ...state, reload };
}

const sameKeys = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((key, i) => Object.is(key, b[i]));
