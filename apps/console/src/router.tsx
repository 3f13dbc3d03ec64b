import { createContext, useContext, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** The console has a handful of routes: the History API is all it needs. */
/** `replace`: the new address takes the current one's place in the history (a choice the page made itself, which Back should not undo). */
type Navigate = (to: string, options?: { replace?: boolean }) => void;
const LocationContext = createContext<{ path: string; search: string; navigate: Navigate }>({ path: '/', search: '', navigate: () => undefined });

export function RouterProvider({ children }: { children: React.ReactNode }) {
  const [location, setLocation] = useState(() => ({ path: window.location.pathname, search: window.location.search }));
  useEffect(() => {
    const onPop = () => setLocation({ path: window.location.pathname, search: window.location.search });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate: Navigate = (to, options) => {
    if (options?.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    const url = new URL(to, window.location.origin);
    setLocation({ path: url.pathname, search: url.search });
  };
  return <LocationContext.Provider value={{ ...location, navigate }}>{children}</LocationContext.Provider>;
}

export const useLocation = () => useContext(LocationContext);

export { matchPath } from './match-path';

export function Link({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const { navigate } = useLocation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={onClick} {...rest} />;
}
