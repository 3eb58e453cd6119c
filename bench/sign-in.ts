import { postLogin } from '../packages/server/src/test/sign-in.ts';

/** Signs in through the real login (captcha solved as the browser would) and answers the bearer and its token. */
export async function signIn(base: string, username: string): Promise<{ headers: { authorization: string }; accessToken: string }> {
  const login = await postLogin(base, username);
  const { access_token } = (await login.json()) as { access_token: string };
  return { headers: { authorization: `Bearer ${access_token}` }, accessToken: access_token };
}
