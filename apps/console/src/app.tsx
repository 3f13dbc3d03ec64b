import { useEffect, useState } from 'react';
import { Layout } from './components/layout';
import { ErrorState } from './components/states';
import { ApiError } from './api';
import { AlertsPage } from './pages/alerts';
import { ErrorsPage } from './pages/errors';
import { InspectorPage } from './pages/inspector';
import { MappingsPage } from './pages/mappings';
import { OperationsPage } from './pages/operations';
import { OverviewPage } from './pages/overview';
import { ReportPage } from './pages/report';
import { SignInPage } from './pages/sign-in';
import { StoresPage } from './pages/stores';
import { matchPath, RouterProvider, useLocation } from './router';
import { clearSession, homeOf, loadSession, saveSession, type Session } from './session';

type PageProps = { session: Session; params: Record<string, string>; basePath: string };

/**
 * The pages, by URL and by who may open them. A new page is one entry here and one link in
 * components/layout.tsx; its data comes from an existing endpoint or /console/api (decision 0033).
 */
const ROUTES: { pattern: string; roles: Session['role'][]; title: string; render: (props: PageProps) => React.ReactNode }[] = [
  { pattern: '/console/portals/:portalId/overview', roles: ['customer'], title: 'Overview', render: (p) => <OverviewPage {...p} /> },
  { pattern: '/console/portals/:portalId/errors', roles: ['customer'], title: 'Errors', render: (p) => <ErrorsPage {...p} /> },
  { pattern: '/console/portals/:portalId/inspector', roles: ['customer'], title: 'Object inspector', render: (p) => <InspectorPage {...p} /> },
  { pattern: '/console/portals/:portalId/mappings', roles: ['customer'], title: 'Mappings', render: (p) => <MappingsPage {...p} /> },
  { pattern: '/console/apps/:appId/overview', roles: ['integrator'], title: 'Overview', render: (p) => <OverviewPage {...p} /> },
  { pattern: '/console/apps/:appId/errors', roles: ['integrator'], title: 'Errors', render: (p) => <ErrorsPage {...p} /> },
  { pattern: '/console/apps/:appId/inspector', roles: ['integrator'], title: 'Object inspector', render: (p) => <InspectorPage {...p} /> },
  { pattern: '/console/apps/:appId/mappings', roles: ['integrator'], title: 'Mappings', render: (p) => <MappingsPage {...p} /> },
  { pattern: '/console/portals/:portalId/report', roles: ['customer'], title: 'Reporting', render: (p) => <ReportPage {...p} /> },
  { pattern: '/console/apps/:appId/report', roles: ['integrator'], title: 'Reporting', render: (p) => <ReportPage {...p} /> },
  { pattern: '/console/portals/:portalId/alerts', roles: ['customer'], title: 'Alerts', render: (p) => <AlertsPage {...p} /> },
  { pattern: '/console/apps/:appId/alerts', roles: ['integrator'], title: 'Alerts', render: (p) => <AlertsPage {...p} /> },
  { pattern: '/console/portals/:portalId/stores', roles: ['customer'], title: 'Stores and imports', render: (p) => <StoresPage {...p} /> },
  { pattern: '/console/operations', roles: ['operator'], title: 'Operations', render: (p) => <OperationsPage {...p} /> },
];

/** A page of the console other than its root and the sign-in page: worth returning to after signing in. */
const isDeepLink = (path: string) => path.startsWith('/console/') && !['/console/', '/console/sign-in'].includes(path);

function Routes() {
  const { path, search, navigate } = useLocation();
  const [session, setSession] = useState<Session | null>(loadSession);
  const route = ROUTES.map((r) => ({ ...r, params: matchPath(r.pattern, path) })).find((r) => r.params);

  useEffect(() => {
    if (session && (path === '/console' || path === '/console/' || path === '/console/sign-in')) navigate(homeOf(session));
  }, [session, path, navigate]);
  useEffect(() => {
    document.title = `${session ? (route?.title ?? 'Not found') : 'Sign in'} · ecomm-sync console`;
    document.getElementById('main')?.focus();
  }, [session, route?.title, path]);

  if (!session) {
    return (
      <SignInPage
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setSession(signedIn);
          // A deep link opened without a session leads there after signing in (any other page: home).
          navigate(isDeepLink(path) ? `${path}${search}` : homeOf(signedIn));
        }}
      />
    );
  }
  const signOut = () => {
    clearSession();
    setSession(null);
    navigate('/console/sign-in');
  };
  let content: React.ReactNode;
  if (!route) content = <ErrorState error={new ApiError(404, `No console page at ${path}.`)} />;
  else if (!route.roles.includes(session.role))
    content = <ErrorState error={new ApiError(403, `This page is not for ${session.role === 'operator' ? 'operators' : `${session.role}s`}.`)} />;
  else if (route.params!.appId !== undefined && route.params!.appId !== session.appId)
    // The API answers for the signed-in application whatever the URL says: a page of another one is refused, not shown with this one's data.
    content = (
      <ErrorState
        error={
          new ApiError(
            403,
            `This page is application ${route.params!.appId}'s; you are signed in for application ${session.appId ?? '(none)'}. Sign out and sign in with that application's id to open it.`,
          )
        }
      />
    );
  else if (route.params!.portalId !== undefined && route.params!.portalId !== String(session.portalId))
    // Likewise a portal's page by URL: another portal, or one that does not exist, is refused before any of its data is asked for.
    content = <ErrorState error={new ApiError(403, `This credential belongs to portal ${session.portalId}, not to portal ${route.params!.portalId}`)} />;
  else content = route.render({ session, params: route.params!, basePath: path.replace(/\/[^/]+$/, '') });
  return (
    <Layout session={session} onSignOut={signOut}>
      {content}
    </Layout>
  );
}

export function App() {
  return (
    <RouterProvider>
      <Routes />
    </RouterProvider>
  );
}
