import { Link, useLocation } from '../router';
import type { Session } from '../session';

/** Header, navigation for the signed-in role, and the page's main landmark. */
export function Layout({ session, onSignOut, children }: { session: Session; onSignOut: () => void; children: React.ReactNode }) {
  const { path } = useLocation();
  const links: { to: string; label: string }[] = [];
  if (session.role === 'customer') {
    links.push(
      { to: `/console/portals/${session.portalId}/overview`, label: 'Overview' },
      { to: `/console/portals/${session.portalId}/errors`, label: 'Errors' },
    );
    links.push(
      { to: `/console/portals/${session.portalId}/inspector`, label: 'Object inspector' },
      { to: `/console/portals/${session.portalId}/mappings`, label: 'Mappings' },
    );
    links.push(
      { to: `/console/portals/${session.portalId}/report`, label: 'Reporting' },
      { to: `/console/portals/${session.portalId}/stores`, label: 'Stores and imports' },
      { to: `/console/portals/${session.portalId}/alerts`, label: 'Alerts' },
    );
  } else if (session.role === 'integrator') {
    const app = encodeURIComponent(session.appId ?? '');
    links.push({ to: `/console/apps/${app}/overview`, label: 'Overview' }, { to: `/console/apps/${app}/errors`, label: 'Errors' });
    links.push({ to: `/console/apps/${app}/inspector`, label: 'Object inspector' }, { to: `/console/apps/${app}/mappings`, label: 'Mappings' });
    links.push({ to: `/console/apps/${app}/report`, label: 'Reporting' }, { to: `/console/apps/${app}/alerts`, label: 'Alerts' });
  } else {
    links.push({ to: '/console/operations', label: 'Operations' });
  }
  const who =
    session.role === 'customer'
      ? `Portal ${session.portalId}${session.appId ? ` · application ${session.appId}` : ''}`
      : session.role === 'integrator'
        ? `Application ${session.appId}`
        : 'Operator';
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">ecomm-sync console</span>
        <nav aria-label="Pages">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} aria-current={path === link.to ? 'page' : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          <span className="who">{who}</span>
          <button type="button" className="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
