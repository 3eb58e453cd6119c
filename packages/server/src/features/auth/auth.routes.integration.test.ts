import { MESSAGES } from '@vpp/shared/messages';
import type { LightMyRequestResponse } from 'fastify';
import { generate, generateSecret } from 'otplib';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, type Harness, PASSWORD } from '../../test/harness.ts';

// MESSAGES.tooManyAttempts with the default 15-minute window filled in.
const TOO_MANY = 'Too many login attempts. Please wait 15 minutes and try again.';

/** The value of a cookie the reply sets, if it sets it. */
const cookie = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name)?.value;

/** Signs in through the login route with a freshly solved captcha. */
async function login(
  h: Harness,
  username: string,
  opts: { password?: string; remoteAddress?: string; cookies?: Record<string, string>; captchaFor?: string } = {},
) {
  const { password = PASSWORD, captchaFor, ...rest } = opts;
  return h.app.inject({ method: 'POST', url: '/auth/login/', payload: { username, password, captchaToken: await h.captcha(captchaFor) }, ...rest });
}

/** A six-digit code that none of the steps checkTotp accepts right now would produce. */
async function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 1000);
  const valid = await Promise.all([-30, 0, 30].map((d) => generate({ secret, epoch: now + d })));
  let n = 0;
  while (valid.includes(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

describeEachDatabase('sign-in', (h) => {
  describe('captcha and password', () => {
    it('signs in with a solved captcha and answers the account', async () => {
      const org = await h().org('NETWORK', 'Grid Co');
      const u = await h().user(org, { username: 'alice' });
      const res = await login(h(), 'alice');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ mfaRequired: false, mfa: null });
      expect(cookie(res, 'vpp_refresh')).toBeTruthy();
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(account.statusCode).toBe(200);
      expect(account.json().data).toMatchObject({ id: u.id, username: 'alice', suborg_type: 'NETWORK', suborg_name: 'Grid Co', mfaEnabled: false });
    });

    it('asks for the human verification when the captcha is missing or empty', async () => {
      const org = await h().org();
      const u = await h().user(org);
      for (const payload of [
        { username: u.username, password: PASSWORD },
        { username: u.username, password: PASSWORD, captchaToken: '' },
      ]) {
        const res = await h().app.inject({ method: 'POST', url: '/auth/login/', payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().data.message).toBe(MESSAGES.captchaRequired);
      }
    });

    it('accepts a solved captcha only once', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const captchaToken = await h().captcha();
      const first = await h().app.inject({ method: 'POST', url: '/auth/login/', payload: { username: u.username, password: PASSWORD, captchaToken } });
      expect(first.statusCode).toBe(200);
      const again = await h().app.inject({ method: 'POST', url: '/auth/login/', payload: { username: u.username, password: PASSWORD, captchaToken } });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: 'captcha_failed', data: { message: MESSAGES.captchaRejected } });
    });

    it('refuses a captcha whose signature was tampered with', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const payload = JSON.parse(Buffer.from(await h().captcha(), 'base64').toString());
      const sig: string = payload.challenge.signature;
      payload.challenge.signature = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
      const captchaToken = Buffer.from(JSON.stringify(payload)).toString('base64');
      const res = await h().app.inject({ method: 'POST', url: '/auth/login/', payload: { username: u.username, password: PASSWORD, captchaToken } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'captcha_failed', data: { message: MESSAGES.captchaRejected } });
    });

    it('refuses a captcha that is not a solved challenge at all', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const res = await h().app.inject({
        method: 'POST',
        url: '/auth/login/',
        payload: { username: u.username, password: PASSWORD, captchaToken: 'bm90IGEgY2FwdGNoYQ==' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(MESSAGES.captchaRejected);
    });

    it('refuses a wrong password with the login message', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const res = await login(h(), u.username, { password: 'Wrong-Password-1' });
      expect(res.statusCode).toBe(401);
      expect(res.json().data.message).toBe(MESSAGES.loginFailed);
      expect(cookie(res, 'vpp_refresh')).toBeUndefined();
    });

    it('answers an unknown user exactly as it answers a wrong password', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const wrong = await login(h(), u.username, { password: 'Wrong-Password-1' });
      const unknown = await login(h(), 'nobody-here', { password: 'Wrong-Password-1' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());
      expect(unknown.json()).toEqual({ status: 'ERROR', error: 'bad_credentials', message: MESSAGES.loginFailed, data: { message: MESSAGES.loginFailed } });
    });

    it('trims the username and accepts the e-mail address, in any case, as the login', async () => {
      const org = await h().org();
      await h().user(org, { username: 'trimmed' });
      expect((await login(h(), '  trimmed  ')).statusCode).toBe(200);
      expect((await login(h(), 'trimmed@example.test')).statusCode).toBe(200);
      expect((await login(h(), 'Trimmed@Example.TEST')).statusCode).toBe(200);
    });
  });

  describe('attempt limits', () => {
    it('refuses a sixth attempt on an account from an address after five failures from it, even with the right password', async () => {
      const org = await h().org();
      const u = await h().user(org);
      for (let i = 1; i <= 5; i++) {
        const res = await login(h(), u.username, { password: 'Wrong-Password-1', remoteAddress: '192.0.2.1' });
        expect(res.statusCode).toBe(401);
        expect(res.json().data.message).toBe(MESSAGES.loginFailed);
      }
      const res = await login(h(), u.username, { remoteAddress: '192.0.2.1', captchaFor: u.username });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ status: 'ERROR', error: 'too_many_requests', data: { message: TOO_MANY } });
    });

    it('does not lock the owner out from an address that has not failed: the account’s captcha costs more instead', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const other = await h().user(org);
      // Someone guesses from five addresses, once each: the account's limit counts each pair alone.
      for (let i = 1; i <= 5; i++)
        expect((await login(h(), u.username, { password: 'Wrong-Password-1', remoteAddress: `192.0.2.${10 + i}` })).statusCode).toBe(401);
      // An ordinary challenge no longer does for this account, and says why…
      const plain = await login(h(), u.username, { remoteAddress: '192.0.2.20' });
      expect(plain.statusCode).toBe(400);
      expect(plain.json()).toMatchObject({ status: 'ERROR', error: 'captcha_harder', data: { message: MESSAGES.captchaHarder } });
      // …nor one asked for another login; one asked for this login is twice the work.
      expect((await login(h(), u.username, { remoteAddress: '192.0.2.20', captchaFor: other.username })).json().error).toBe('captcha_harder');
      const challenge = (await h().app.inject({ method: 'GET', url: `/auth/captcha/challenge?login=${u.username.toUpperCase()}` })).json();
      expect(challenge.parameters.data).toEqual({ login: u.username, factor: 2 });
      const ok = await login(h(), u.username, { remoteAddress: '192.0.2.20', captchaFor: u.username });
      expect(ok.statusCode).toBe(200);
      // A challenge asked for the e-mail address does for the username: both name the account.
      const byEmail = await login(h(), u.username, { remoteAddress: '192.0.2.21', captchaFor: `${u.username}@example.test` });
      expect(byEmail.statusCode, byEmail.body).toBe(200);
      // Other accounts are untouched.
      expect((await h().app.inject({ method: 'GET', url: `/auth/captcha/challenge?login=${other.username}` })).json().parameters.data.factor).toBe(1);
      expect((await login(h(), other.username, { remoteAddress: '192.0.2.20' })).statusCode).toBe(200);
      // Each further five failures double the work, up to 64 times.
      for (let i = 1; i <= 5; i++) await login(h(), u.username, { password: 'Wrong-Password-1', remoteAddress: `192.0.2.${30 + i}`, captchaFor: u.username });
      const costlier = (await h().app.inject({ method: 'GET', url: `/auth/captcha/challenge?login=${u.username}` })).json();
      expect(costlier.parameters.data.factor).toBe(4);
    });

    it('counts failures under the username and the e-mail address as one account', async () => {
      const org = await h().org();
      const u = await h().user(org);
      for (let i = 1; i <= 5; i++) {
        const res = await login(h(), i % 2 ? u.username : `${u.username}@example.test`, { password: 'Wrong-Password-1', remoteAddress: '192.0.2.25' });
        expect(res.statusCode).toBe(401);
      }
      const res = await login(h(), `${u.username}@example.test`, { remoteAddress: '192.0.2.25' });
      expect(res.statusCode).toBe(429);
      expect(res.json().data.message).toBe(TOO_MANY);
    });

    it('starts the count again after a successful sign-in', async () => {
      const org = await h().org();
      const u = await h().user(org);
      for (let i = 1; i <= 4; i++) await login(h(), u.username, { password: 'Wrong-Password-1', remoteAddress: '192.0.2.41' });
      expect((await login(h(), u.username, { remoteAddress: '192.0.2.41' })).statusCode).toBe(200);
      for (let i = 1; i <= 4; i++) await login(h(), u.username, { password: 'Wrong-Password-1', remoteAddress: '192.0.2.41' });
      expect((await login(h(), u.username, { remoteAddress: '192.0.2.41' })).statusCode).toBe(200);
    });
  });

  describe('two-factor', () => {
    it('asks a confirmed user for the code, and the half-signed-in token opens nothing else', async () => {
      const org = await h().org();
      const u = await h().user(org, { mfaSecret: generateSecret() });
      const res = await login(h(), u.username);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ mfaRequired: true, mfa: { confirmed: true, totpUri: null } });
      expect(cookie(res, 'vpp_refresh')).toBeUndefined();
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(account.statusCode).toBe(401);
      expect(account.json().error).toBe('mfa_failure');
    });

    it('signs in with a good code, then refuses the same code again', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const pending = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };
      const totpCode = await generate({ secret });

      const res = await h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: pending, payload: { totpCode } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'OK', access_token: expect.any(String) });
      expect(cookie(res, 'vpp_refresh')).toBeTruthy();
      expect(cookie(res, 'vpp_device')).toBeUndefined();
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(account.statusCode).toBe(200);
      expect(account.json().data).toMatchObject({ username: u.username, mfaEnabled: true });

      const fresh = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };
      const again = await h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: fresh, payload: { totpCode } });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: 'code_reused', data: { message: 'This code has already been used. Wait for the next code and try again.' } });
    });

    it('uses the half-signed-in token up: once with a good code, or after five wrong codes from any addresses', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const verify = (headers: { authorization: string }, totpCode: string, remoteAddress = '127.0.0.1') =>
        h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers, payload: { totpCode }, remoteAddress });
      const pending = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };
      expect((await verify(pending, await generate({ secret }))).statusCode).toBe(200);
      // The same token with the next code would be a second session from one password.
      await h().ctx.db.updateTable('users').set({ totp_last_step: 0 }).where('id', '=', u.id).execute();
      const reused = await verify(pending, await generate({ secret }));
      expect(reused.statusCode).toBe(401);
      expect(reused.json()).toMatchObject({ status: 'ERROR', error: 'unauthorized', data: { message: MESSAGES.sessionExpired } });
      expect(cookie(reused, 'vpp_refresh')).toBeUndefined();
      // Wrong codes spread over addresses: five per token, then a new sign-in is needed.
      const guessed = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };
      for (let i = 1; i <= 5; i++) expect((await verify(guessed, await wrongCode(secret), `203.0.113.${i}`)).statusCode).toBe(400);
      const sixth = await verify(guessed, await generate({ secret }), '203.0.113.6');
      expect(sixth.statusCode).toBe(401);
      expect(sixth.json().data.message).toBe(MESSAGES.sessionExpired);
    });

    it('refuses a wrong code and a code that is not six digits', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const pending = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };

      const wrong = await h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: pending, payload: { totpCode: await wrongCode(secret) } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().data.message).toBe(MESSAGES.codeInvalid);

      for (const totpCode of ['12345', '1234567', 'abcdef']) {
        const short = await h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: pending, payload: { totpCode } });
        expect(short.statusCode).toBe(400);
        expect(short.json().data.message).toBe(MESSAGES.codeLength);
      }
    });

    it('refuses even the right code after five wrong codes from an address, and a new sign-in from it does not start the count again', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const pending = { authorization: `Bearer ${(await login(h(), u.username, { remoteAddress: '192.0.2.60' })).json().access_token}` };
      for (let i = 1; i <= 5; i++) {
        const res = await h().app.inject({
          method: 'POST',
          url: '/auth/mfa/verify-code',
          headers: pending,
          payload: { totpCode: await wrongCode(secret) },
          remoteAddress: '192.0.2.60',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().data.message).toBe(MESSAGES.codeInvalid);
      }
      const right = await h().app.inject({
        method: 'POST',
        url: '/auth/mfa/verify-code',
        headers: pending,
        payload: { totpCode: await generate({ secret }) },
        remoteAddress: '192.0.2.60',
      });
      expect(right.statusCode).toBe(429);
      expect(right.json().data.message).toBe(TOO_MANY);
      expect(cookie(right, 'vpp_refresh')).toBeUndefined();
      const again = await login(h(), u.username, { remoteAddress: '192.0.2.60', captchaFor: u.username });
      expect(again.statusCode).toBe(429);
      expect(again.json().data.message).toBe(TOO_MANY);
      // The owner, elsewhere, signs in (with the costlier captcha) and gives the code.
      const elsewhere = await login(h(), u.username, { remoteAddress: '192.0.2.61', captchaFor: u.username });
      expect(elsewhere.statusCode).toBe(200);
      const code = await h().app.inject({
        method: 'POST',
        url: '/auth/mfa/verify-code',
        headers: { authorization: `Bearer ${elsewhere.json().access_token}` },
        payload: { totpCode: await generate({ secret }) },
        remoteAddress: '192.0.2.61',
      });
      expect(code.statusCode).toBe(200);
    });

    it('starts the count of wrong codes again after a good one', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const verify = async (totpCode: string) => {
        const pending = { authorization: `Bearer ${(await login(h(), u.username, { remoteAddress: '192.0.2.70' })).json().access_token}` };
        return h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: pending, payload: { totpCode }, remoteAddress: '192.0.2.70' });
      };
      for (let i = 1; i <= 4; i++) expect((await verify(await wrongCode(secret))).statusCode).toBe(400);
      expect((await verify(await generate({ secret }))).statusCode).toBe(200);
      for (let i = 1; i <= 4; i++) expect((await verify(await wrongCode(secret))).statusCode).toBe(400);
      expect((await login(h(), u.username, { remoteAddress: '192.0.2.70' })).statusCode).toBe(200);
    });

    it('accepts a code typed with spaces', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const pending = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };
      const code = await generate({ secret });
      const res = await h().app.inject({
        method: 'POST',
        url: '/auth/mfa/verify-code',
        headers: pending,
        payload: { totpCode: `${code.slice(0, 3)} ${code.slice(3)}` },
      });
      expect(res.statusCode).toBe(200);
    });

    it('sets up two-factor for a user who has none yet, and confirms it with the first good code', async () => {
      const org = await h().org();
      const u = await h().user(org, { mfa: true });
      const first = await login(h(), u.username);
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body).toMatchObject({ mfaRequired: true, mfa: { confirmed: false } });
      expect(body.mfa.totpUri).toMatch(/^otpauth:\/\/totp\//);
      const secret = new URL(body.mfa.totpUri).searchParams.get('secret') as string;

      const verified = await h().app.inject({
        method: 'POST',
        url: '/auth/mfa/verify-code',
        headers: { authorization: `Bearer ${body.access_token}` },
        payload: { totpCode: await generate({ secret }) },
      });
      expect(verified.statusCode).toBe(200);

      const second = await login(h(), u.username);
      expect(second.json()).toMatchObject({ mfaRequired: true, mfa: { confirmed: true, totpUri: null } });
    });

    it('shows the same set-up secret until it is confirmed', async () => {
      const org = await h().org();
      const u = await h().user(org, { mfa: true });
      const first = (await login(h(), u.username)).json();
      const second = (await login(h(), u.username)).json();
      expect(second.mfa).toEqual({ confirmed: false, totpUri: first.mfa.totpUri });
    });

    it('skips the code for two weeks in a remembered browser, for that user only', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const other = await h().user(org, { mfaSecret: generateSecret() });
      const pending = { authorization: `Bearer ${(await login(h(), u.username)).json().access_token}` };

      const verified = await h().app.inject({
        method: 'POST',
        url: '/auth/mfa/verify-code',
        headers: pending,
        payload: { totpCode: await generate({ secret }), rememberDevice: true },
      });
      expect(verified.statusCode).toBe(200);
      const device = verified.cookies.find((c) => c.name === 'vpp_device');
      if (!device) throw new Error('no vpp_device cookie in the reply');
      expect(device.maxAge).toBe(14 * 24 * 3600);

      const later = await login(h(), u.username, { cookies: { vpp_device: device.value } });
      expect(later.statusCode).toBe(200);
      expect(later.json()).toMatchObject({ mfaRequired: false, mfa: null });
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${later.json().access_token}` } });
      expect(account.statusCode).toBe(200);

      const borrowed = await login(h(), other.username, { cookies: { vpp_device: device.value } });
      expect(borrowed.json()).toMatchObject({ mfaRequired: true, mfa: { confirmed: true } });
    });
  });

  describe('refresh and logout', () => {
    /** Moves the first use of the user's used refresh tokens back in time, out of the reuse grace. */
    const usedSecondsAgo = async (userId: number, seconds: number) => {
      await h()
        .ctx.db.updateTable('refresh_tokens')
        .set((eb) => ({ used_at: eb('used_at', '-', seconds) }))
        .where('user_id', '=', userId)
        .where('used_at', 'is not', null)
        .execute();
    };

    it('takes a cookie back within 10 s of its use (a reply the browser never got), and keeps the session', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const first = cookie(await login(h(), u.username), 'vpp_refresh') as string;
      const lost = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      expect(lost.statusCode).toBe(200);

      const again = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      expect(again.statusCode).toBe(200);
      const third = cookie(again, 'vpp_refresh') as string;
      expect(third).not.toBe(cookie(lost, 'vpp_refresh'));
      const next = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: third } });
      expect(next.statusCode).toBe(200);
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${next.json().access_token}` } });
      expect(account.statusCode).toBe(200);
    });

    it('rotates the refresh cookie and gives a working access token', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const signedIn = await login(h(), u.username);
      const first = cookie(signedIn, 'vpp_refresh') as string;

      const res = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'OK', access_token: expect.any(String) });
      const second = cookie(res, 'vpp_refresh');
      expect(second).toBeTruthy();
      expect(second).not.toBe(first);
      const account = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(account.json().data.username).toBe(u.username);
    });

    it('revokes the whole session when an old refresh cookie comes back', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const first = cookie(await login(h(), u.username), 'vpp_refresh') as string;
      const second = cookie(await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } }), 'vpp_refresh') as string;
      await usedSecondsAgo(u.id, 11);

      const replay = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().data.message).toBe(MESSAGES.sessionExpired);

      const next = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: second } });
      expect(next.statusCode).toBe(401);
      expect(next.json().data.message).toBe(MESSAGES.sessionExpired);
    });

    it('refuses the access tokens of a session revoked by a replayed refresh cookie', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const first = cookie(await login(h(), u.username), 'vpp_refresh') as string;
      const rotated = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      const access = rotated.json().access_token as string;
      const before = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${access}` } });
      expect(before.statusCode).toBe(200);

      await usedSecondsAgo(u.id, 11);
      await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: first } });
      const after = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${access}` } });
      expect(after.statusCode).toBe(401);
      expect(after.json().data.message).toBe(MESSAGES.sessionExpired);
    });

    it('answers 401 to a refresh without a cookie', async () => {
      const res = await h().app.inject({ method: 'POST', url: '/auth/refresh/' });
      expect(res.statusCode).toBe(401);
      expect(res.json().data.message).toBe(MESSAGES.sessionExpired);
    });

    it('ends the session on logout with the access token alone (no cookie)', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const signedIn = await login(h(), u.username);
      const refresh = cookie(signedIn, 'vpp_refresh') as string;
      const headers = { authorization: `Bearer ${signedIn.json().access_token}` };
      const other = await login(h(), u.username);
      const out = await h().app.inject({ method: 'POST', url: '/auth/logout/', headers });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ status: 'OK' });
      const ended = await h().app.inject({ method: 'GET', url: '/account', headers });
      expect(ended.statusCode).toBe(401);
      expect(ended.json().data.message).toBe(MESSAGES.sessionExpired);
      const res = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: refresh } });
      expect(res.statusCode).toBe(401);
      const still = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${other.json().access_token}` } });
      expect(still.statusCode).toBe(200);
      // A half-signed-in token logged out can no longer take a code; a made-up token changes nothing.
      const secret = generateSecret();
      const m = await h().user(org, { mfaSecret: secret });
      const pending = { authorization: `Bearer ${(await login(h(), m.username)).json().access_token}` };
      expect((await h().app.inject({ method: 'POST', url: '/auth/logout/', headers: pending })).statusCode).toBe(200);
      const code = await h().app.inject({ method: 'POST', url: '/auth/mfa/verify-code', headers: pending, payload: { totpCode: await generate({ secret }) } });
      expect(code.statusCode).toBe(401);
      expect((await h().app.inject({ method: 'POST', url: '/auth/logout/', headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(200);
    });

    it('ends the session on logout', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const signedIn = await login(h(), u.username);
      const refresh = cookie(signedIn, 'vpp_refresh') as string;
      const access = signedIn.json().access_token as string;
      const other = await login(h(), u.username);
      const out = await h().app.inject({ method: 'POST', url: '/auth/logout/', cookies: { vpp_refresh: refresh } });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ status: 'OK' });
      const res = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: refresh } });
      expect(res.statusCode).toBe(401);
      // The access token of the ended session stops working at once; another sign-in is untouched.
      const ended = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${access}` } });
      expect(ended.statusCode).toBe(401);
      expect(ended.json().data.message).toBe(MESSAGES.sessionExpired);
      const still = await h().app.inject({ method: 'GET', url: '/account', headers: { authorization: `Bearer ${other.json().access_token}` } });
      expect(still.statusCode).toBe(200);
    });
  });
});

describeEachDatabase(
  'sign-in limit per address',
  (h) => {
    it('refuses every account from an address that has failed too often, and no other address', async () => {
      const org = await h().org();
      const u = await h().user(org);
      for (let i = 1; i <= 3; i++) {
        const res = await login(h(), `ghost${i}`, { password: 'Wrong-Password-1', remoteAddress: '198.51.100.7' });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await login(h(), u.username, { remoteAddress: '198.51.100.7' });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().data.message).toBe(TOO_MANY);
      expect((await login(h(), u.username, { remoteAddress: '198.51.100.8' })).statusCode).toBe(200);
    });

    it('counts wrong two-factor codes against the address they come from', async () => {
      const org = await h().org();
      const secret = generateSecret();
      const u = await h().user(org, { mfaSecret: secret });
      const other = await h().user(org);
      const pending = { authorization: `Bearer ${(await login(h(), u.username, { remoteAddress: '198.51.100.9' })).json().access_token}` };
      for (let i = 1; i <= 3; i++) {
        const res = await h().app.inject({
          method: 'POST',
          url: '/auth/mfa/verify-code',
          headers: pending,
          payload: { totpCode: await wrongCode(secret) },
          remoteAddress: '198.51.100.10',
        });
        expect(res.statusCode).toBe(400);
      }
      const blocked = await login(h(), other.username, { remoteAddress: '198.51.100.10' });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().data.message).toBe(TOO_MANY);
    });
  },
  { LOGIN_MAX_FAILURES_PER_ADDRESS: '3' },
);
