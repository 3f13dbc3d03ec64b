import type { ConsoleInstall } from '@ecomm-sync/contracts';

/** The owner of a portal's own (direct) data; any other owner is an installed application's id. */
export const DIRECT = 'direct';

/** Whose a store's data is: `direct` for the portal's own, else the application's id. */
export const ownerOf = (appId: string | null | undefined): string => appId || DIRECT;

/** The applications' names by id, from the installs the credential sees. */
export const appNames = (installs: readonly Pick<ConsoleInstall, 'appId' | 'appName'>[] = []): ReadonlyMap<string, string> =>
  new Map(installs.map((install) => [install.appId, install.appName]));

/** The owner in words: the portal's own, or the application by name and id (its id alone until the name is known). */
export const ownerLabel = (owner: string, names: ReadonlyMap<string, string>): string => {
  if (owner === DIRECT) return "Portal's own (direct use)";
  const name = names.get(owner);
  return name ? `Application ${name} (${owner})` : `Application ${owner}`;
};

/** A store choice's value: owner and store id in one (a store id is ASCII without `/` in practice; the owner is split off at the first `/`). */
export const storeChoiceValue = (owner: string, storeId: string): string => `${owner}/${storeId}`;

export const parseStoreChoice = (value: string): { owner: string; storeId: string } | undefined => {
  const at = value.indexOf('/');
  return at > 0 && at < value.length - 1 ? { owner: value.slice(0, at), storeId: value.slice(at + 1) } : undefined;
};

/** One choice per (owner, store), labelled by owner, the portal's own first, then by label. */
export const storeChoices = (
  stores: readonly { appId: string | null; storeId: string }[],
  names: ReadonlyMap<string, string>,
): [value: string, label: string][] => {
  const choices = new Map<string, string>();
  for (const store of stores) {
    const owner = ownerOf(store.appId);
    choices.set(storeChoiceValue(owner, store.storeId), `${store.storeId} · ${ownerLabel(owner, names)}`);
  }
  const direct = (value: string) => (value.startsWith(`${DIRECT}/`) ? 0 : 1);
  return [...choices].sort(([a, la], [b, lb]) => direct(a) - direct(b) || la.localeCompare(lb));
};
