import type { LoginStatus } from '@vpp/shared/constants';
import { useSyncExternalStore } from 'react';

/** Session state of spec 1 §3: how far sign-in has got, and why the user was sent back to it. */
export interface SessionState {
  loginStatus: LoginStatus;
  sessionExpired: boolean;
  timezoneMismatch: boolean;
  totpConfig: { confirmed: boolean; totpUri: string | null } | null;
  /** A message from the server to show on the login panel (rate limit, captcha). */
  message: string | null;
}

const TOKEN_KEY = 'vpp.access_token';
const initial = (): SessionState => ({ loginStatus: 'FETCHING', sessionExpired: false, timezoneMismatch: false, totpConfig: null, message: null });

/** The stored token, or null where there is none (or storage is refused). */
function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

// Nothing stored: signed out from the start (issue 30), so that the login page is the app's first
// render, sliced as a transition (main.tsx), rather than a loader replaced in one unsliced render
// when the session's boot says so (an external store's update cannot be time-sliced).
let state: SessionState = storedToken() ? initial() : { ...initial(), loginStatus: 'LOGGED_OUT' };
let refresher: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();
const resetListeners = new Set<() => void>();

function set(patch: Partial<SessionState>) {
  // A patch that changes nothing renders nothing.
  if ((Object.keys(patch) as (keyof SessionState)[]).every((k) => Object.is(state[k], patch[k]))) return;
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export const session = {
  get: () => state,
  set,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Called whenever all state is reset (logout, expiry): the query cache clears itself here. */
  onReset(listener: () => void) {
    resetListeners.add(listener);
    return () => resetListeners.delete(listener);
  },
  token: () => localStorage.getItem(TOKEN_KEY),
  /** The auth area's token refresh, registered there: the request layer tries it before it gives up on a 401. */
  setRefresher(fn: () => Promise<void>) {
    refresher = fn;
  },
  /** Exchanges the refresh cookie for a new token; false when there is no refresher or it failed. */
  async refresh(): Promise<boolean> {
    if (!refresher) return false;
    return refresher().then(
      () => true,
      () => false,
    );
  },
  setToken(token: string) {
    localStorage.setItem(TOKEN_KEY, token);
  },
  /** Clears the token and all state; `expired` shows the session-expired message on the login panel. */
  reset(opts: { expired?: boolean; message?: string | null } = {}) {
    localStorage.removeItem(TOKEN_KEY);
    for (const l of resetListeners) l();
    state = { ...initial(), loginStatus: 'LOGGED_OUT', sessionExpired: opts.expired ?? false, message: opts.message ?? null };
    for (const l of listeners) l();
  },
};

/** Seconds until the stored token expires (negative when it has), from its `exp` claim. */
export function tokenExpiresIn(token: string | null): number {
  if (!token) return -1;
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return Number(payload.exp) - Date.now() / 1000;
  } catch {
    return -1;
  }
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get);
}
