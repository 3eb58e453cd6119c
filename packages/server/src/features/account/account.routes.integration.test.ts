import { MESSAGES } from '@vpp/shared/messages';
import { generate, generateSecret } from 'otplib';
import { expect, it } from 'vitest';
import { describeEachDatabase, type Harness, PASSWORD } from '../../test/harness.ts';

/** Signs a two-factor user in all the way: password, then a fresh code from their secret. */
async function bearerWithCode(h: Harness, username: string, secret: string) {
  const login = await h.app.inject({ method: 'POST', url: '/auth/login/', payload: { username, password: PASSWORD, captchaToken: await h.captcha() } });
  const res = await h.app.inject({
    method: 'POST',
    url: '/auth/mfa/verify-code',
    headers: { authorization: `Bearer ${login.json().access_token}` },
    payload: { totpCode: await generate({ secret }) },
  });
  if (res.statusCode !== 200) throw new Error(`verify-code ${username}: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().access_token}` };
}

describeEachDatabase('account', (h) => {
  it('answers 401 to every account call without a token', async () => {
    for (const [method, url] of [
      ['GET', '/account'],
      ['POST', '/account/timezone?timezone=Australia/Perth'],
      ['GET', '/account/mfa/settings'],
      ['POST', '/auth/mfa/code-preference'],
    ] as const) {
      const res = await h().app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().data.message).toBe('Sign in to continue.');
    }
  });

  it('answers the account with its organisation, settings and permissions', async () => {
    const org = await h().org('INSTALLER', 'Bright Installations');
    const u = await h().user(org, { username: 'ingrid', permissions: ['fleet.node.view', 'fleet.dispatches.view'] });
    const res = await h().app.inject({ method: 'GET', url: '/account', headers: await h().bearer(u.username) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'OK',
      data: {
        id: u.id,
        username: 'ingrid',
        email: 'ingrid@example.test',
        givenName: 'Test',
        surname: 'ingrid',
        name: 'Test ingrid',
        timezone: null,
        suborg_type: 'INSTALLER',
        suborg_name: 'Bright Installations',
        alertEmailFrequency: 'DAILY',
        mfaEnabled: false,
        permissions: ['fleet.dispatches.view', 'fleet.node.view'],
      },
    });
  });

  it('saves the time zone and answers it on the account', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    const res = await h().app.inject({ method: 'POST', url: '/account/timezone?timezone=Australia/Perth', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    const account = await h().app.inject({ method: 'GET', url: '/account', headers });
    expect(account.json().data.timezone).toBe('Australia/Perth');
  });

  it('refuses a time zone that does not exist and keeps the one saved', async () => {
    const org = await h().org();
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    await h().app.inject({ method: 'POST', url: '/account/timezone?timezone=Australia/Darwin', headers });
    for (const zone of ['Mars/Olympus_Mons', 'AEST']) {
      const res = await h().app.inject({ method: 'POST', url: `/account/timezone?timezone=${zone}`, headers });
      expect(res.statusCode, zone).toBe(400);
      expect(res.json().data.message).toBe('Unknown time zone: use an IANA name such as Australia/Sydney.');
    }
    const account = await h().app.inject({ method: 'GET', url: '/account', headers });
    expect(account.json().data.timezone).toBe('Australia/Darwin');
  });

  it('answers the two-factor settings of a user who has it on', async () => {
    const org = await h().org();
    const secret = generateSecret();
    const u = await h().user(org, { mfaSecret: secret });
    const headers = await bearerWithCode(h(), u.username, secret);
    const account = await h().app.inject({ method: 'GET', url: '/account', headers });
    expect(account.json().data.mfaEnabled).toBe(true);
    const res = await h().app.inject({ method: 'GET', url: '/account/mfa/settings', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'OK',
      data: { confirmed: true, codePreference: 'APP', phoneNumberMasked: null, phoneNumberConfirmed: false, totpUri: null },
    });
  });

  it('refuses the account to a token still waiting for the two-factor code', async () => {
    const org = await h().org();
    const u = await h().user(org, { mfaSecret: generateSecret() });
    const login = await h().app.inject({
      method: 'POST',
      url: '/auth/login/',
      payload: { username: u.username, password: PASSWORD, captchaToken: await h().captcha() },
    });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    for (const url of ['/account', '/account/mfa/settings']) {
      const res = await h().app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toBe('mfa_failure');
    }
  });

  it('accepts the authenticator app as code preference and nothing else', async () => {
    const org = await h().org();
    const secret = generateSecret();
    const u = await h().user(org, { mfaSecret: secret });
    const headers = await bearerWithCode(h(), u.username, secret);
    const ok = await h().app.inject({ method: 'POST', url: '/auth/mfa/code-preference', headers, payload: { codePreference: 'APP' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'OK' });
    const sms = await h().app.inject({ method: 'POST', url: '/auth/mfa/code-preference', headers, payload: { codePreference: 'SMS' } });
    expect(sms.statusCode).toBe(400);
    expect(sms.json()).toMatchObject({ status: 'ERROR', data: { message: expect.stringContaining('"APP"') } });
    const settings = await h().app.inject({ method: 'GET', url: '/account/mfa/settings', headers });
    expect(settings.json().data.codePreference).toBe('APP');
  });

  it('tells an expired or foreign token that the session has expired', async () => {
    const res = await h().app.inject({
      method: 'GET',
      url: '/account',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.message).toBe(MESSAGES.sessionExpired);
  });
});
