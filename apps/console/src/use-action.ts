import { useCallback, useState } from 'react';
import { ApiError } from './api';

export interface ActionNotice {
  text: string;
  failed: boolean;
}

/**
 * A button's call to the service: busy while it runs, then a notice saying it was done (or what
 * `done` says of the result), or the service's own message when it refused (a 409 says why, and
 * what to do instead).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<ActionNotice>({ text: '', failed: false });
  const act = async <T>(what: string, call: () => Promise<T>, done?: (result: T) => string): Promise<T | undefined> => {
    setBusy(true);
    setNotice({ text: '', failed: false });
    try {
      const result = await call();
      setNotice({ text: done ? done(result) : `${what}: done.`, failed: false });
      return result;
    } catch (error) {
      setNotice({ text: `${what} failed: ${error instanceof ApiError ? error.message : String(error)}`, failed: true });
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  /** A refusal is about what was tried then: gone once the page moves on (another action succeeded, the address changed). */
  const clearRefusal = useCallback(() => setNotice((shown) => (shown.failed ? { text: '', failed: false } : shown)), []);
  return { busy, notice, act, setNotice, clearRefusal };
}
