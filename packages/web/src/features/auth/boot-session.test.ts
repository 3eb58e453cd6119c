import { afterEach, expect, it, vi } from 'vitest';
import { session } from '../../lib/session.ts';
import { bootSession } from './api.ts';

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
