import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { loadAppStyles } from './styles.ts';

/** The sidebar groups of spec 1 §2, in order (the app gives each its icon). */
export const NAV_GROUP_LABELS = [
  'Dashboard',
  'Virtual Power Plants',
  'GridCredits',
  'Analysis',
  'Fleet Monitoring',
  'Ordering',
  'Support',
  'Customers',
  'My Reposit',
] as const;
export type NavGroupLabel = (typeof NAV_GROUP_LABELS)[number];

/** A sidebar entry: the route that declares it gives its path; list pages open with limit 10. */
export interface NavEntry {
  group: NavGroupLabel;
  label: string;
  /** Query string the sidebar link adds (list pages: limit=10&offset=0). */
  search?: string;
  permission: PermissionRequirement | null;
  order: number;
}

/**
 * One route of an area: a page loaded on demand (`page`, from React.lazy) or an element (a
 * redirect). `nav` puts it in the sidebar; `public` serves it signed out, in the login shell.
 */
export interface AreaRoute {
  path: string;
  page?: LazyPage;
  element?: ReactNode;
  nav?: NavEntry;
  public?: boolean;
  /**
   * Who may open a signed-in page (null: every signed-in user); every page route says. Without it
   * the page is refused before it mounts, so none of its calls is made (no 'Not Authorized' toast
   * beside the refusal); `title` heads the refusal (default: the sidebar label).
   */
  permission?: PermissionRequirement | null;
  title?: string;
}

/** A page loaded when first shown, whose module can be asked for sooner (`preload`). */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload?: () => Promise<unknown> };

/**
 * React.lazy of the component `pick` takes from what `load` answers, rendered at once when a call of
 * `load` (the one answered here, a preload) has finished before its first render: React.lazy given a
 * thenable that resolves as it is asked does not suspend, and React 19 holds back a suspended
 * boundary's reveal up to 300 ms after its fallback showed (issue 30 item 2: the dashboard's first
 * visit waited so for the main shell, then for the page, both loaded already).
 */
export function lazyLoaded<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
  let done: { m: M } | undefined;
  const tracked = () =>
    load().then((m) => {
      done = { m };
      return m;
    });
  // biome-ignore lint/suspicious/noThenProperty: a thenable that settles synchronously is what keeps React.lazy from suspending
  const settled = (m: M) => ({ then: (resolve: (v: { default: ComponentType<P> }) => void) => resolve({ default: pick(m) }) });
  const component = lazy(() => (done ? settled(done.m) : tracked().then((m) => ({ default: pick(m) }))) as Promise<{ default: ComponentType<P> }>);
  return { component, load: tracked };
}

/**
 * A page loaded when first shown: `load` imports the page's module, `pick` names its export.
 * `preload()` starts the import early: the app opened at a signed-in page asks for that page's
 * module beside the main shell's and the account, not after them, and renders it without suspending
 * when it has arrived first (issue 30 item 2).
 */
export const lazyPage = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType): LazyPage => {
  // With the app's styles, which the login page goes without (lib/styles.ts).
  const page = lazyLoaded(() => Promise.all([load(), loadAppStyles()]).then(([m]) => m), pick);
  return Object.assign(page.component, { preload: () => page.load().catch(() => undefined) });
};

/** Redirects an old route with an :id to its new path (replacing the history entry). */
export function RedirectWithId({ to }: { to: (id: string) => string }) {
  const { id = '' } = useParams();
  return <Navigate to={to(id)} replace />;
}

/**
 * Whether the browser's Back stays in this app: the router numbers its own history entries (`idx`,
 * 0 for the page the app was opened at), so a page opened from a bookmark, a new tab or an e-mail
 * link has nowhere in the app to go back to, whatever `history.length` says.
 */
export function canGoBackInApp(location: { key: string }): boolean {
  const idx = (window.history.state as { idx?: number } | null)?.idx;
  // Without the browser's history (a memory router), the first location's key is 'default'.
  return idx === undefined ? location.key !== 'default' : idx > 0;
}

/** Go Back and Cancel: the previous page of this app, or `fallback` when the page was opened directly. */
export function useGoBack(fallback: string) {
  const navigate = useNavigate();
  const location = useLocation();
  return () => (canGoBackInApp(location) ? navigate(-1) : navigate(fallback));
}
