import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** When the data was last read (shown as "updated at"). */
  updatedAt: number | undefined;
  reload: () => void;
}

/** Answers that asking again unchanged cannot turn (the same list ErrorState offers no "Try again" for). */
export const REFUSALS: readonly number[] = [400, 401, 403, 404, 431];

/**
 * Reads now, then every `intervalMs` while the page is open: pages update without a reload. When
 * `deps` change, what was read stays on screen until the new read answers (paging, following an
 * import), unless `resetWhen` changed too: what identifies whose data it is (the portal an
 * integrator picked), so that one portal's figures are never shown under another's name.
 */
export function usePolling<T>(read: () => Promise<T>, deps: readonly unknown[], intervalMs = 3000, resetWhen: readonly unknown[] = []): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'reload'>>({ data: undefined, error: undefined, loading: true, updatedAt: undefined });
  const readRef = useRef(read);
  readRef.current = read;
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const readFor = useRef<readonly unknown[]>(resetWhen);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let refused = false;
      try {
        const data = await readRef.current();
        if (!cancelled) setState({ data, error: undefined, loading: false, updatedAt: Date.now() });
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
    const changed = resetWhen.length !== readFor.current.length || resetWhen.some((key, i) => !Object.is(key, readFor.current[i]));
    readFor.current = resetWhen;
    setState((previous) => (changed ? { data: undefined, error: undefined, loading: true, updatedAt: undefined } : { ...previous, loading: true }));
    void run();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [...deps, tick, intervalMs]);

  return { ...state, reload };
}
