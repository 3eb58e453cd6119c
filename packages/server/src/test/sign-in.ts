import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

// The one HTTP sign-in of the tests and benches that talk to a running server (the crash tests, the
// end-to-end API client, the benches): each checks the reply its own way.

/** A captcha token for the login route: the server's proof-of-work challenge, solved as the browser solves it. */
export async function captchaToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/captcha/challenge`);
  if (!res.ok) throw new Error(`captcha challenge: ${res.status}`);
  const challenge = (await res.json()) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** POST /auth/login/ as the login screen sends it (its captcha solved): the reply. */
export async function postLogin(baseUrl: string, username: string, password = DEMO_PASSWORD): Promise<Response> {
  return fetch(`${baseUrl}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, captchaToken: await captchaToken(baseUrl) }),
  });
}
