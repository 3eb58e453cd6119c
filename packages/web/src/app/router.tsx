import { Component, type ReactNode, Suspense } from 'react';
import { type Location, matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader.tsx';
import type { AreaRoute } from '../lib/routes.tsx';
import { LoginShell } from './login-shell.tsx';
import { PageGuard } from './page-guard.tsx';
import { Root, type RouteHandle } from './root.tsx';
import { ROUTES } from './routes.tsx';

/** A route's element: a lazy public page in the login shell's panel; a signed-in page waits in the main shell's Suspense (Root). */
function elementOf(r: AreaRoute) {
  if (!r.page) return r.element;
  const Page = r.page;
  if (!r.public && r.permission) {
    return (
      <PageGuard permission={r.permission} title={r.title ?? r.nav?.label ?? ''}>
        <Page />
      </PageGuard>
    );
  }
  if (!r.public) return <Page />;
  return (
    <LoginShell>
      <Suspense fallback={<DelayedLoader minHeight={120} />}>
        <Page />
      </Suspense>
    </LoginShell>
  );
}

/** What the table says of each route that matches `location` (or a path), outermost first. */
export const handlesAt = (location: Partial<Location> | string): RouteHandle[] =>
  (matchRoutes(routeObjects, location) ?? []).map((m) => m.route.handle as RouteHandle);

/** Every route of the table under the Root, which chooses the shell. */
const routeObjects: RouteObject[] = [
  {
    element: <Root handlesAt={handlesAt} />,
    children: ROUTES.map((r) => ({ path: r.path, element: elementOf(r), handle: { public: r.public ?? false, preload: r.page?.preload } })),
  },
];

/**
 * The app's routes at the browser's location, under main.tsx's BrowserRouter. A declarative router,
 * not React Router's data router (createBrowserRouter): the app has no loaders, actions or fetchers,
 * and the data router's code was 12 KB gzipped of the login page's script and its route table's
 * set-up a share of the work before its first render (issue 30).
 */
export function AppRoutes() {
  const location = useLocation();
  return <RenderErrorBoundary location={location}>{useRoutes(routeObjects, location)}</RenderErrorBoundary>;
}

const lightgrey = 'rgba(200,200,200, 0.5)';

/**
 * A page that throws as it renders (a chunk that failed to load, a bug) shows what the data router
 * showed in its place, React Router's default error element, rather than an empty window; the next
 * location renders afresh.
 */
class RenderErrorBoundary extends Component<{ location: Location; children: ReactNode }, { error: unknown; location: Location }> {
  state = { error: undefined as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: { error: unknown; location: Location }) {
    return props.location !== state.location ? { error: undefined, location: props.location } : null;
  }

  render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    const stack = error instanceof Error ? error.stack : null;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{message}</h3>
        {stack ? <pre style={{ padding: '0.5rem', backgroundColor: lightgrey }}>{stack}</pre> : null}
        <p>💿 Hey developer 👋</p>
        <p>
          You can provide a way better UX than this when your app throws errors by providing your own{' '}
          <code style={{ padding: '2px 4px', backgroundColor: lightgrey }}>ErrorBoundary</code> or{' '}
          <code style={{ padding: '2px 4px', backgroundColor: lightgrey }}>errorElement</code> prop on your route.
        </p>
      </>
    );
  }
}
