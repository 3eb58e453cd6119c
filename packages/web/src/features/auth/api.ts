import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@vpp/shared/auth/schemas';
import { TOKEN_REFRESH_BEFORE_S } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { session, tokenExpiresIn } from '../../lib/session.ts';

/**
 * The auth area's contract (its endpoints and their zod schemas), loaded on demand: the login page
 * paints without zod (issue 30), and the form loads it on its first focus, with the captcha.
 */
export const loadAuthEndpoints = async () => (await import('@vpp/shared/auth/endpoints')).authEndpoints;

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
// A reset session (logout, expiry) must not refresh itself back to life later.
session.onReset(() => clearTimeout(refreshTimer));

/** Runs the refresh in the background 300 s before the access token expires. */
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  const from = session.token();
  const inS = tokenExpiresIn(from) - TOKEN_REFRESH_BEFORE_S;
  refreshTimer = setTimeout(() => void refreshNow(from).catch(() => undefined), Math.max(0, inS) * 1000);
}

let inFlight: Promise<void> | null = null;

/** A token's `exp` claim (whole seconds, so two readings of one token compare equal). */
const expiryOf = (token: string | null) => Math.round(Date.now() / 1000 + tokenExpiresIn(token));

/**
 * Runs `task` holding the refresh lock that every tab of this origin shares; unlocked where there
 * are no Web Locks (they need a secure context).
 */
const withRefreshLock = (task: () => Promise<void>): Promise<void> => (navigator.locks ? navigator.locks.request<void>('vpp-console-refresh', task) : task());

/**
 * Exchanges the refresh cookie for a new access token; a refused refresh ends the session. The tabs
 * share the token (localStorage) and the cookie, so they take turns: a tab that finds a newer token
 * than the one it set out to replace uses that one, rather than sending a cookie that was rotated
 * already (the server would take that for a replay and end the session).
 */
export function refreshNow(from: string | null = session.token()): Promise<void> {
  const replacing = session.token();
  inFlight ??= withRefreshLock(async () => {
    const stored = session.token();
    if (stored && expiryOf(stored) > expiryOf(from)) return;
    const r = await call((await loadAuthEndpoints()).refresh, {}, { quiet: true });
    session.setToken(r.access_token);
  })
    .then(() => scheduleRefresh())
    .catch((err) => {
      // Only the server's refusal (a 401) ends the session: a refresh that never arrived (the
      // network, a page being left mid-request) or a server failure leaves the stored session for
      // the next try. A session ended meanwhile (the user signed out: the server revoked the cookie
      // this refresh sent) has not expired: the login panel says nothing of it.
      if (refused(err) && replacing !== null && session.token() === replacing && !signingOut) session.reset({ expired: true });
      throw err;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

session.setRefresher(() => refreshNow());

/** A call that got no answer from the server (network down, or aborted as the page was left). */
const unreachable = (err: unknown) => err instanceof ApiError && err.status === 0;
/** The server refused the session (an expired, revoked or unknown token). */
const refused = (err: unknown) => err instanceof ApiError && err.status === 401;

/** Stores a full token, loads the account and enters the app. */
async function enter(token: string) {
  session.setToken(token);
  scheduleRefresh();
  await queryClient.fetchQuery(accountQueryOptions);
  session.set({ loginStatus: 'LOGGED_IN', sessionExpired: false, totpConfig: null, message: null });
}

const isPending = (token: string) => {
  try {
    return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).mfa === 'pending';
  } catch {
    return true;
  }
};

/** At start: resume a stored session (refreshing a token close to expiry), or show the login. */
export async function bootSession() {
  const token = session.token();
  // Nothing stored: just signed out (a reset here would also empty the query cache mid-flight).
  if (!token) return session.set({ loginStatus: 'LOGGED_OUT' });
  if (isPending(token)) return session.reset();
  try {
    if (tokenExpiresIn(token) < TOKEN_REFRESH_BEFORE_S) await refreshNow();
    await enter(session.token() as string);
  } catch (err) {
    if (session.get().loginStatus !== 'FETCHING') return;
    // Only a refused session signs the user out. A page left while it boots aborts its requests,
    // and a server failure is not the user's: the stored session stays, and the login panel says
    // why it is showing.
    if (refused(err)) {
      if (session.token()) session.reset({ expired: true });
    } else session.set({ loginStatus: 'ERROR', message: unreachable(err) ? (err as ApiError).message : MESSAGES.accountLoadFailed });
  }
}

export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => call((await loadAuthEndpoints()).login, { body }, { quiet: true }),
    onSuccess: async (reply) => {
      if (!reply.mfaRequired) return enter(reply.access_token);
      session.setToken(reply.access_token);
      const confirmed = reply.mfa?.confirmed ?? true;
      session.set({
        loginStatus: confirmed ? 'TOTP_REQUIRED' : 'TOTP_UNCONFIGURED',
        totpConfig: { confirmed, totpUri: reply.mfa?.totpUri ?? null },
        sessionExpired: false,
        message: null,
      });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 401) session.set({ loginStatus: 'BAD_AUTH', sessionExpired: false, message: null });
      else session.set({ loginStatus: 'ERROR', sessionExpired: false, message: err.message });
    },
  });
}

export function useVerifyCode() {
  return useMutation({
    mutationFn: async (body: { totpCode: string; rememberDevice: boolean }) => call((await loadAuthEndpoints()).verifyCode, { body }, { quiet: true }),
    onSuccess: (reply) => enter(reply.access_token),
  });
}

/** Ends the session on the server and resets all state. */
export async function logout() {
  clearTimeout(refreshTimer);
  signingOut = true;
  try {
    await call((await loadAuthEndpoints()).logout, { body: undefined }, { quiet: true }).catch(() => undefined);
  } finally {
    signingOut = false;
    session.reset();
  }
}

/**
 * While a sign-out is on its way, the requests already sent (the bell's poll, a page's query) may be
 * refused: the server has revoked the session. Those refusals are the sign-out's, not an expiry.
 */
let signingOut = false;
