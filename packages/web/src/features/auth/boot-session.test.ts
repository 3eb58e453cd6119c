import { afterEach, expect, it, vi } from 'vitest';
import { request } from '../../lib/request.ts';
import { session } from '../../lib/session.ts';
import { bootSession, logout } from './api.ts';

/** A signed access token's shape: only its claims matter to the browser. */
const token = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.y`;
const fresh = () => token({ sub: '1', mfa: 'done', exp: Math.floor(Date.now() / 1000) + 900 });

afterEach(() => session.reset());

it('keeps the stored session when the boot gets no answer (a page left mid-request), and says why the login shows', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'FETCHING' });
  vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
  await bootSession();
  expect(session.token()).not.toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'ERROR', message: 'The server could not be reached.' });
});

it('keeps the stored session when the page is left after the headers came, while the body was still arriving', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'FETCHING' });
  // The browser aborts the body of a reply whose headers it has: reading it fails.
  const cut = () => new Response(new ReadableStream({ start: (c) => c.error(new DOMException('The user aborted a request.', 'AbortError')) }), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn().mockImplementation(async () => cut()),
  );
  await bootSession();
  expect(session.token()).not.toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'ERROR', message: 'The server could not be reached.' });
});

it('signs out when the server refuses the stored session, with the session-expired message', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'FETCHING' });
  vi.stubGlobal(
    'fetch',
    vi.fn().mockResolvedValue(new Response(JSON.stringify({ status: 'ERROR', error: 'unauthorized', message: 'x', data: { message: 'x' } }), { status: 401 })),
  );
  await bootSession();
  expect(session.token()).toBeNull();
  expect(session.get().loginStatus).toBe('LOGGED_OUT');
  expect(session.get().sessionExpired).toBe(true);
});

/** Answers by path: each path's replies in turn (the last one repeats); `seen` records the calls. */
function server(routes: Record<string, [number, unknown][]>) {
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://console').pathname;
      seen.push(`${init?.method ?? 'GET'} ${path} ${(init?.headers as Record<string, string>)?.authorization ?? ''}`.trim());
      const list = routes[path] ?? [[404, null]];
      const [status, body] = list.length > 1 ? (list.shift() as [number, unknown]) : list[0];
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return seen;
}
const refusal = { status: 'ERROR', error: 'unauthorized', message: 'Your session has expired. Please log in again.' };

it('keeps the session when the server fails to load the account (a 500 is not an expired session), and says what failed', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'FETCHING' });
  server({ '/account': [[500, { status: 'ERROR', error: 'internal_error', message: 'Something went wrong on the server.' }]] });
  await bootSession();
  expect(session.token()).not.toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'ERROR', sessionExpired: false, message: 'Failed to load user account details' });
});

it('answers a 401 with a token refresh and the call made again, and stays signed in', async () => {
  const old = fresh();
  const renewed = token({ sub: '1', mfa: 'done', exp: Math.floor(Date.now() / 1000) + 1800 });
  session.setToken(old);
  session.set({ loginStatus: 'LOGGED_IN' });
  const seen = server({
    '/api/users': [
      [401, refusal],
      [200, { status: 'OK', data: [] }],
    ],
    '/auth/refresh/': [[200, { status: 'OK', access_token: renewed }]],
  });
  await expect(request('/api/users')).resolves.toEqual({ status: 'OK', data: [] });
  expect(seen).toEqual([`GET /api/users Bearer ${old}`, 'POST /auth/refresh/', `GET /api/users Bearer ${renewed}`]);
  expect(session.token()).toBe(renewed);
  expect(session.get()).toMatchObject({ loginStatus: 'LOGGED_IN', sessionExpired: false });
});

it('signs out with the session-expired message only when the refresh after a 401 is refused too', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'LOGGED_IN' });
  server({ '/api/users': [[401, refusal]], '/auth/refresh/': [[500, null]] });
  await expect(request('/api/users')).rejects.toThrow();
  expect(session.token()).not.toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'LOGGED_IN', sessionExpired: false });

  server({ '/api/users': [[401, refusal]], '/auth/refresh/': [[401, refusal]] });
  await expect(request('/api/users')).rejects.toThrow();
  expect(session.token()).toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'LOGGED_OUT', sessionExpired: true });
});

/** A reply held until `release` is called: a request in flight. */
function held() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release: () => release() };
}

it('signs out without the session-expired message when a request sent before the Log Out is refused during it', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'LOGGED_IN' });
  const out = held();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://console').pathname;
      // The server has revoked the session as the sign-out came: the bell's poll and its refresh are refused.
      if (path === '/auth/logout/') await out.gate;
      return new Response(JSON.stringify(path === '/auth/logout/' ? { status: 'OK' } : refusal), { status: path === '/auth/logout/' ? 200 : 401 });
    }),
  );
  const signingOut = logout();
  await expect(request('/api/notifications')).rejects.toThrow();
  out.release();
  await signingOut;
  expect(session.token()).toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'LOGGED_OUT', sessionExpired: false });
});

it('signs out without the session-expired message when a request sent before the Log Out is refused after it', async () => {
  session.setToken(fresh());
  session.set({ loginStatus: 'LOGGED_IN' });
  const poll = held();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://console').pathname;
      if (path === '/api/notifications') await poll.gate;
      return new Response(JSON.stringify(path === '/auth/logout/' ? { status: 'OK' } : refusal), { status: path === '/auth/logout/' ? 200 : 401 });
    }),
  );
  // The poll went out with the token; its refusal comes after the sign-out has ended.
  const polled = request('/api/notifications');
  await logout();
  poll.release();
  await expect(polled).rejects.toThrow();
  expect(session.token()).toBeNull();
  expect(session.get()).toMatchObject({ loginStatus: 'LOGGED_OUT', sessionExpired: false });
});
