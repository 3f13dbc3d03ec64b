import { useEffect } from 'react';
import { ApiError, sessionApi } from '../api';
import type { Session } from '../session';
import { message, REAPPLY_START_WAIT_MS, SETTINGS, type Reapply, type Saving } from './mappings-draft';

/**
 * After a save that starts a re-apply (`saving.before` set): its progress, read every second until
 * the job newer than `before` ends. A 404 is a job not made yet, a 429 or 408 a read to try again;
 * a refusal (the credential no longer works) ends the wait with what the server said, and so does
 * a minute without a newer job.
 */
export function useReapplyProgress(session: Session, saving: Saving, setSaving: (update: (current: Saving) => Saving) => void): void {
  useEffect(() => {
    if (saving.before === undefined || (saving.reapply && saving.reapply.settingsRev > saving.before && saving.reapply.status !== 'running')) return;
    const timer = setTimeout(() => {
      // None started within the wait (the stored settings had this change already): said, and no more asking.
      if (!saving.reapply && saving.since !== undefined && Date.now() - saving.since > REAPPLY_START_WAIT_MS) {
        return setSaving((current) => ({
          note: `${current.note} none has started within a minute: nothing needed it, or the mapper is behind (see Operations).`,
        }));
      }
      sessionApi<Reapply>(session, `${SETTINGS}/reapply-status`)
        .then((reapply) => setSaving((current) => ({ ...current, reapply: reapply.settingsRev > (current.before ?? 0) ? reapply : current.reapply })))
        .catch((error) =>
          setSaving((current) =>
            error instanceof ApiError && error.status >= 400 && error.status < 500 && ![404, 408, 429].includes(error.status)
              ? { note: `${current.note} Its progress cannot be read: ${message(error)}` }
              : { ...current },
          ),
        );
    }, 1000);
    return () => clearTimeout(timer);
  }, [saving, session]);
}
