import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { describePasswordFailures, passwordFailures } from '@vpp/shared/auth/password-rules';
import { MESSAGES } from '@vpp/shared/messages';
import { generate, generateSecret } from 'otplib';
import { expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { hashToken } from '../../platform/tokens.ts';
import { describeEachDatabase, type Harness, PASSWORD } from '../../test/harness.ts';
import { linkIn, mailTo } from '../../test/outbox.ts';

const NEW_PASSWORD = 'Wattle-Sunset-77';

async function login(h: Harness, username: string, password: string, cookies?: Record<string, string>) {
  return h.app.inject({ method: 'POST', url: '/auth/login/', payload: { username, password, captchaToken: await h.captcha() }, cookies });
}

/** Signs a two-factor user in with 'remember this browser' and answers the device cookie. */
async function rememberBrowser(h: Harness, username: string, secret: string): Promise<Record<string, string>> {
  const pending = { authorization: `Bearer ${(await login(h, username, PASSWORD)).json().access_token}` };
  const res = await h.app.inject({
    method: 'POST',
    url: '/auth/mfa/verify-code',
    headers: pending,
    payload: { totpCode: await generate({ secret }), rememberDevice: true },
  });
  const device = res.cookies.find((c) => c.name === 'vpp_device');
  if (!device) throw new Error(`no vpp_device cookie: ${res.statusCode} ${res.body}`);
  return { vpp_device: device.value };
}

describeEachDatabase('password flows', (h) => {
  const post = (url: string, payload?: object, headers?: Record<string, string>) => h().app.inject({ method: 'POST', url, payload, headers });

  /** Asks for a reset for a fresh user and answers the user and the token from the e-mail's link. */
  async function resetToken() {
    const org = await h().org();
    const u = await h().user(org);
    const email = `${u.username}@example.test`;
    await post('/password/reset', { email });
    const mails = await mailTo(h().ctx, email);
    const token = linkIn(mails.at(-1)!, '/password/reset').searchParams.get('token')!;
    return { ...u, email, token };
  }

  const verify = async (token: string) => (await h().app.inject({ method: 'GET', url: `/password/change/verify_token?token=${token}` })).json();

  it('answers a forgot-password request the same whether or not the address has an account', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const known = await post('/password/reset', { email: `  ${u.username.toUpperCase()}@EXAMPLE.TEST ` });
    const unknown = await post('/password/reset', { email: 'nobody-at-all@example.test' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ status: 'OK', message: PASSWORD_MESSAGES.resetRequested });
    expect(unknown.json()).toEqual(known.json());
    expect(await mailTo(h().ctx, 'nobody-at-all@example.test')).toEqual([]);
  });

  it('e-mails a reset link and a "this was not me" link to the account', async () => {
    const { email, token } = await resetToken();
    const [mail] = await mailTo(h().ctx, email);
    expect(mail.subject).toBe('Reset your VPP Console password');
    expect(mail.text).toContain('within 1 hour');
    expect(linkIn(mail, '/password/reset').origin).toBe('http://localhost:8080');
    expect(linkIn(mail, '/password/reset/disavow').searchParams.get('token')).toBe(token);
    // Only the hash is stored.
    const stored = await h().ctx.db.selectFrom('password_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('refuses a forgot-password request without a usable e-mail address, saying what is wrong', async () => {
    for (const [payload, message] of [
      [{}, PASSWORD_MESSAGES.emailRequired],
      [{ email: '  ' }, PASSWORD_MESSAGES.emailRequired],
      [{ email: 'not-an-address' }, PASSWORD_MESSAGES.emailInvalid],
    ] as const) {
      const res = await post('/password/reset', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().data.message).toBe(message);
    }
  });

  it('sends no link to a deactivated account, and at most 5 an hour to any account', async () => {
    const org = await h().org();
    const off = await h().user(org);
    await h().ctx.db.updateTable('users').set({ active: 0 }).where('id', '=', off.id).execute();
    await post('/password/reset', { email: `${off.username}@example.test` });
    expect(await mailTo(h().ctx, `${off.username}@example.test`)).toEqual([]);

    const u = await h().user(org);
    for (let i = 0; i < 7; i++) expect((await post('/password/reset', { email: `${u.username}@example.test` })).statusCode).toBe(200);
    expect(await mailTo(h().ctx, `${u.username}@example.test`)).toHaveLength(5);
  });

  it('verifies a live link, and not a made-up one', async () => {
    const { token } = await resetToken();
    expect(await verify(token)).toEqual({ status: 'OK', valid: true, purpose: 'reset' });
    expect(await verify('made-up')).toEqual({ status: 'OK', valid: false, purpose: null });
    const none = await h().app.inject({ method: 'GET', url: '/password/change/verify_token' });
    expect(none.statusCode).toBe(400);
    expect(none.json().data.message).toBe(PASSWORD_MESSAGES.linkMissing);
  });

  it('sets the password through the link once, and ends the sessions of the account', async () => {
    const { username, token } = await resetToken();
    const before = await login(h(), username, PASSWORD);
    const res = await post(`/password/change?token=${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', message: PASSWORD_MESSAGES.passwordReset });

    expect((await login(h(), username, PASSWORD)).statusCode).toBe(401);
    expect((await login(h(), username, NEW_PASSWORD)).statusCode).toBe(200);
    const refreshCookie = before.cookies.find((c) => c.name === 'vpp_refresh')!.value;
    const refresh = await h().app.inject({ method: 'POST', url: '/auth/refresh/', cookies: { vpp_refresh: refreshCookie } });
    expect(refresh.statusCode).toBe(401);

    const again = await post(`/password/change?token=${token}`, { password: 'Another-Pass-99', confirmPassword: 'Another-Pass-99' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_token', data: { message: PASSWORD_MESSAGES.linkInvalid } });
    expect(await verify(token)).toEqual({ status: 'OK', valid: false, purpose: null });
  });

  it('forgets the remembered browsers of the account when the password is reset', async () => {
    const org = await h().org();
    const secret = generateSecret();
    const u = await h().user(org, { mfaSecret: secret });
    const device = await rememberBrowser(h(), u.username, secret);
    expect((await login(h(), u.username, PASSWORD, device)).json()).toMatchObject({ mfaRequired: false });

    const email = `${u.username}@example.test`;
    await post('/password/reset', { email });
    const token = linkIn((await mailTo(h().ctx, email)).at(-1)!, '/password/reset').searchParams.get('token')!;
    expect((await post(`/password/change?token=${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).statusCode).toBe(200);

    const after = await login(h(), u.username, NEW_PASSWORD, device);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ mfaRequired: true, mfa: { confirmed: true } });
  });

  it('ends the older links of an account when one of them is used', async () => {
    const first = await resetToken();
    await post('/password/reset', { email: first.email });
    const mails = await mailTo(h().ctx, first.email);
    const second = linkIn(mails.at(-1)!, '/password/reset').searchParams.get('token')!;
    expect((await post(`/password/change?token=${second}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).statusCode).toBe(200);
    expect(await verify(first.token)).toEqual({ status: 'OK', valid: false, purpose: null });
  });

  it('refuses a link that has expired', async () => {
    const { token } = await resetToken();
    await h()
      .ctx.db.updateTable('password_tokens')
      .set({ expires_at: nowS() - 1 })
      .where('token_hash', '=', hashToken(token))
      .execute();
    expect(await verify(token)).toEqual({ status: 'OK', valid: false, purpose: null });
    const res = await post(`/password/change?token=${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(PASSWORD_MESSAGES.linkInvalid);
  });

  it('refuses a new password that breaks a rule or is not confirmed, and keeps the link and the password', async () => {
    const { username, token } = await resetToken();
    for (const [payload, message] of [
      [{ confirmPassword: NEW_PASSWORD }, PASSWORD_MESSAGES.newPasswordRequired],
      [{ password: NEW_PASSWORD }, PASSWORD_MESSAGES.confirmationRequired],
      [{ password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` }, PASSWORD_MESSAGES.resetMismatch],
      [{ password: 'password1', confirmPassword: 'password1' }, describePasswordFailures(passwordFailures('password1'))],
      [{ password: 'Ab1-xyz', confirmPassword: 'Ab1-xyz' }, 'The password must have at least 8 characters.'],
      [{ password: 'abcdefgh12', confirmPassword: 'abcdefgh12' }, 'The password must use at least 3 of lower case, upper case, digits and special characters.'],
    ] as const) {
      const res = await post(`/password/change?token=${token}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().data.message).toBe(message);
    }
    expect(await verify(token)).toEqual({ status: 'OK', valid: true, purpose: 'reset' });
    expect((await login(h(), username, PASSWORD)).statusCode).toBe(200);
  });

  it('kills a disavowed link and e-mails support once', async () => {
    const { email, token, id } = await resetToken();
    const res = await post(`/password/reset/disavow?token=${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', message: PASSWORD_MESSAGES.disavowed });
    expect(await verify(token)).toEqual({ status: 'OK', valid: false, purpose: null });
    const use = await post(`/password/change?token=${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(use.statusCode).toBe(400);
    expect(use.json().data.message).toBe(PASSWORD_MESSAGES.linkInvalid);

    expect((await post(`/password/reset/disavow?token=${token}`)).statusCode).toBe(200);
    const support = (await mailTo(h().ctx, 'support@localhost')).filter((m) => m.subject === `Password link disavowed: ${email}`);
    expect(support).toHaveLength(1);
    expect(support[0].text).toContain(`user ${id}`);
  });

  it('lets a used link be disavowed (someone else may have used it), and refuses an unknown one', async () => {
    const { email, token } = await resetToken();
    await post(`/password/change?token=${token}`, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect((await post(`/password/reset/disavow?token=${token}`)).statusCode).toBe(200);
    const support = (await mailTo(h().ctx, 'support@localhost')).filter((m) => m.subject === `Password link disavowed: ${email}`);
    expect(support[0].text).toMatch(/Link used: \d{4}-/);
    const unknown = await post('/password/reset/disavow?token=made-up');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.message).toBe(PASSWORD_MESSAGES.linkInvalid);
  });

  it('answers 401 to the inline change without a token', async () => {
    const res = await post('/password/inline-change', { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.message).toBe('Sign in to continue.');
  });

  it('refuses an inline change with a missing, unconfirmed or weak password, or a wrong current one, and changes nothing', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    const good = { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD };
    for (const [payload, message] of [
      [{ ...good, oldPassword: '' }, PASSWORD_MESSAGES.currentRequired],
      [{ ...good, newPassword: undefined }, PASSWORD_MESSAGES.inlineNewRequired],
      [{ ...good, passwordConfirmation: '' }, PASSWORD_MESSAGES.inlineConfirmRequired],
      [{ ...good, passwordConfirmation: 'Wattle-Sunset-78' }, PASSWORD_MESSAGES.inlineMismatch],
      [{ ...good, newPassword: 'qwerty123', passwordConfirmation: 'qwerty123' }, describePasswordFailures(passwordFailures('qwerty123'))],
      [{ ...good, oldPassword: 'Not-My-Password-1' }, PASSWORD_MESSAGES.currentIncorrect],
    ] as const) {
      const res = await post('/password/inline-change', payload, headers);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().data.message).toBe(message);
    }
    expect((await login(h(), u.username, PASSWORD)).statusCode).toBe(200);
  });

  it('changes the password inline and keeps the session', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    const res = await post('/password/inline-change', { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    expect((await login(h(), u.username, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(h(), u.username, PASSWORD)).statusCode).toBe(401);
    expect((await h().app.inject({ method: 'GET', url: '/account', headers })).statusCode).toBe(200);
  });

  it('forgets the remembered browsers of the account on an inline change', async () => {
    const org = await h().org();
    const secret = generateSecret();
    const u = await h().user(org, { mfaSecret: secret });
    const device = await rememberBrowser(h(), u.username, secret);
    const signedIn = await login(h(), u.username, PASSWORD, device);
    expect(signedIn.json()).toMatchObject({ mfaRequired: false });
    const headers = { authorization: `Bearer ${signedIn.json().access_token}` };
    const res = await post('/password/inline-change', { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }, headers);
    expect(res.statusCode).toBe(200);

    const after = await login(h(), u.username, NEW_PASSWORD, device);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ mfaRequired: true, mfa: { confirmed: true } });
  });

  it('pauses inline changes after too many wrong current passwords', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    const wrong = { oldPassword: 'Not-My-Password-1', newPassword: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD };
    for (let i = 0; i < 5; i++) expect((await post('/password/inline-change', wrong, headers)).statusCode).toBe(400);
    const res = await post('/password/inline-change', { ...wrong, oldPassword: PASSWORD }, headers);
    expect(res.statusCode).toBe(429);
    expect(res.json().data.message).toBe(MESSAGES.tooManyAttempts.replace('{minutes}', '15'));
  });
});

describeEachDatabase('alert e-mail frequency', (h) => {
  it('answers 401 without a token', async () => {
    const res = await h().app.inject({ method: 'POST', url: '/account/alertEmail?frequency=NOW' });
    expect(res.statusCode).toBe(401);
  });

  it('saves each of the five frequencies and refuses any other', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    for (const frequency of ['NEVER', 'NOW', 'HOURLY', 'WEEKLY', 'DAILY']) {
      const res = await h().app.inject({ method: 'POST', url: `/account/alertEmail?frequency=${frequency}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK' });
      expect((await h().app.inject({ method: 'GET', url: '/account', headers })).json().data.alertEmailFrequency).toBe(frequency);
    }
    for (const url of ['/account/alertEmail?frequency=MONTHLY', '/account/alertEmail']) {
      const res = await h().app.inject({ method: 'POST', url, headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe('Unknown alert email frequency: choose one of NEVER, NOW, HOURLY, DAILY, WEEKLY.');
    }
    expect((await h().app.inject({ method: 'GET', url: '/account', headers })).json().data.alertEmailFrequency).toBe('DAILY');
  });
});
