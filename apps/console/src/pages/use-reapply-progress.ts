import { useEffect } from 'react';
import { ApiError, sessionApi } from '../api';
import type { Session } from '../session';
import { message, SETTINGS, type Reapply, type Saving } from './mappings-draft';

/**
 * After a save that starts a re-apply (`saving.before` set): its progress, read every second until
 * the job newer than `before` ends. A 404 is a job not made yet; a refusal (the credential no longer
 * works) ends the wait with what the server said.
 */
export function useReapplyProgress(session: Session, saving: Saving, setSaving: (update: (current: Saving) => Saving) => void): void {
  useEffect(() => {
    if (saving.before === undefined || (saving.reapply && saving.reapply.settingsRev > saving.before && saving.reapply.status !== 'running')) return;
    const timer = setTimeout(() => {
      sessionApi<Reapply>(session, `${SETTINGS}/reapply-status`)
        .then((reapply) => setSaving((current) => ({ ...current, reapply: reapply.settingsRev > (current.before ?? 0) ? reapply : current.reapply })))
        .catch((error) =>
          setSaving((current) =>
            error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 404
              ? { note: `${current.note} Its progress cannot be read: ${message(error)}` }
              : { ...current },
          ),
        );
    }, 1000);
    return () => clearTimeout(timer);
  }, [saving, session]);
}
