import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** Signs in through the real login (captcha solved as the browser would) and answers the bearer and its token. */
export async function signIn(base: string, username: string): Promise<{ headers: { authorization: string }; accessToken: string }> {
  const challenge = await (await fetch(`${base}/auth/captcha/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  const login = await fetch(`${base}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD, captchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return { headers: { authorization: `Bearer ${access_token}` }, accessToken: access_token };
}
