import { useEffect, useRef } from 'react';
import type { ConsoleInstall, ConsoleInstalls } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { useLocation } from '../router';
import type { Session } from '../session';
import { usePolling, type Polled } from '../use-polling';
import { installToAutoPick } from './install-auto-pick';
import { SelectField } from './select-field';

/** The installs the credential sees (an integrator's portals, a portal's applications), read once a minute. */
export const useInstalls = (session: Session): Polled<ConsoleInstalls> =>
  usePolling(() => sessionApi<ConsoleInstalls>(session, '/console/api/v1/installs'), [session.secret], 60_000);

const PICK = {
  portal: {
    label: 'Portal',
    prompt: 'Pick a portal',
    none: 'No portal installed this application',
    key: (i: ConsoleInstall) => String(i.portalId),
    text: (i: ConsoleInstall) => `Portal ${i.portalId}`,
  },
  application: {
    label: 'Application',
    prompt: 'Pick an application',
    none: 'No application is installed in this portal',
    key: (i: ConsoleInstall) => i.appId,
    text: (i: ConsoleInstall) => `${i.appName} (${i.appId})`,
  },
} as const;

/**
 * A choice among the installs: an integrator picks one of the portals that installed its
 * application, a customer one of the applications installed in the portal. No id to type.
 */
export function InstallPicker({
  installs,
  what,
  value,
  onChange,
  label,
  required,
  applyOnCommit,
}: {
  installs: Polled<ConsoleInstalls>;
  what: keyof typeof PICK;
  value: string;
  /** `auto`: the picker chose the only install itself. */
  onChange: (value: string, how?: { auto: boolean }) => void;
  label?: string;
  required?: boolean;
  /** The pick navigates or reloads: applied on Enter or blur, not on each arrow key (SelectField). */
  applyOnCommit?: boolean;
}) {
  const pick = PICK[what];
  const choices = new Map<string, string>();
  for (const install of installs.data?.results ?? []) choices.set(pick.key(install), pick.text(install));
  // The only install is picked by itself on the first load: nobody has to choose it by hand on every
  // page. Once anything was chosen, an empty value is the user's "Pick a …", not a reason to pick again.
  const chosen = useRef(false);
  const only = installToAutoPick(value, [...choices.keys()], chosen.current);
  useEffect(() => {
    if (value) chosen.current = true;
  }, [value]);
  useEffect(() => {
    if (!only) return;
    chosen.current = true;
    onChange(only, { auto: true });
    // Not on onChange: it is a new function on each render, and the pick depends on the choices alone.
  }, [only]);
  // A value from the page's URL that is not (or not yet) among the installs stays shown as it is.
  if (value && !choices.has(value)) choices.set(value, what === 'portal' ? `Portal ${value}` : value);
  const first = installs.error
    ? `${pick.label}s could not be read: ${installs.error.message}`
    : !installs.data
      ? `Loading the ${what}s…`
      : choices.size === 0
        ? pick.none
        : pick.prompt;
  return (
    <SelectField
      label={label ?? pick.label}
      value={value}
      onChange={onChange}
      required={required}
      applyOnCommit={applyOnCommit}
      first={first}
      choices={[...choices]}
    />
  );
}

/** The portal an integrator's page is about, kept in the page's URL (`?portalId=`) so a reload or a link keeps it. */
export function usePickedPortal(): [string, (portalId: string, how?: { auto: boolean }) => void] {
  const { path, search, navigate } = useLocation();
  const query = new URLSearchParams(search);
  const pick = (portalId: string, how?: { auto: boolean }) => {
    if (portalId) query.set('portalId', portalId);
    else query.delete('portalId');
    // The only portal, picked by the page: Back leads to the page before, not to an address that picks it again.
    navigate(`${path}${query.size ? `?${query}` : ''}`, { replace: how?.auto });
  };
  return [query.get('portalId') ?? '', pick];
}

/** An integrator's page about one portal at a time: its pick among the portals that installed the application, applied on commit. */
export function PortalPick({ session, portalId, onPick }: { session: Session; portalId: string; onPick: (portalId: string, how?: { auto: boolean }) => void }) {
  const installs = useInstalls(session);
  return (
    <form className="filters" aria-label="Which portal" onSubmit={(e) => e.preventDefault()}>
      <InstallPicker installs={installs} what="portal" value={portalId} onChange={onPick} applyOnCommit />
    </form>
  );
}
