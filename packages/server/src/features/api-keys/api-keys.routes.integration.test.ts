import { Writable } from 'node:stream';
import { API_KEY_MESSAGES, ipParseFailure, scopeNotHeldMessage } from '@vpp/shared/account/api-keys';
import { MESSAGES } from '@vpp/shared/messages';
import { READ_ONLY_PERMISSIONS } from '@vpp/shared/permissions/registry';
import { unknownPermissionMessage } from '@vpp/shared/users/schemas';
import { expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { describeEachDatabase, type Harness, PASSWORD } from '../../test/harness.ts';
import { mailTo } from '../../test/outbox.ts';

const b64 = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('base64'));

describeEachDatabase('API keys', (h) => {
  async function owner(opts: { permissions?: string[] } = {}) {
    const org = await h().org();
    const u = await h().user(org, opts);
    return { ...u, org, headers: await h().bearer(u.username) };
  }

  async function create(hh: Harness, headers: Record<string, string>, body: object, password = PASSWORD) {
    return hh.app.inject({ method: 'POST', url: `/account/api-keys?password=${b64(password)}`, headers, payload: body });
  }

  const list = async (headers: Record<string, string>) => (await h().app.inject({ method: 'GET', url: '/account/api-keys', headers })).json().data.keys;

  /** GET /account as the key, from an address. */
  const asKey = (key: string, remoteAddress = '127.0.0.1', header: 'x-api-key' | 'bearer' = 'x-api-key') =>
    h().app.inject({
      method: 'GET',
      url: '/account',
      remoteAddress,
      headers: header === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` },
    });

  it('answers 401 to every key call without a token', async () => {
    for (const [method, url] of [
      ['GET', '/account/api-keys'],
      ['POST', `/account/api-keys?password=${b64(PASSWORD)}`],
      ['DELETE', `/account/api-keys/1?password=${b64(PASSWORD)}`],
    ] as const) {
      const res = await h().app.inject({ method, url, payload: method === 'POST' ? { keyName: 'x' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().data.message).toBe('Sign in to continue.');
    }
  });

  it('refuses a key without a name, without the password or with a wrong one, or with a bad address, and creates nothing', async () => {
    const o = await owner();
    for (const [body, password, status, error, message] of [
      [{}, PASSWORD, 400, 'bad_request', API_KEY_MESSAGES.nameRequired],
      [{ keyName: '   ' }, PASSWORD, 400, 'bad_request', API_KEY_MESSAGES.nameRequired],
      [{ keyName: 'x'.repeat(101) }, PASSWORD, 400, 'bad_request', API_KEY_MESSAGES.nameTooLong],
      [{ keyName: 'Billing export' }, 'Wrong-Password-1', 400, 'password_rejected', API_KEY_MESSAGES.passwordRejected],
      [{ keyName: 'Billing export', ipWhitelist: '10.0.0.1 10.0.0.300' }, PASSWORD, 400, 'ip_parse_failure', ipParseFailure('10.0.0.300')],
      [{ keyName: 'Billing export', ipWhitelist: ['10.0.0.0/33'] }, PASSWORD, 400, 'ip_parse_failure', ipParseFailure('10.0.0.0/33')],
      [{ keyName: 'Billing export', ipWhitelist: '10.0.0.0/255.0.255.0' }, PASSWORD, 400, 'ip_parse_failure', ipParseFailure('10.0.0.0/255.0.255.0')],
      [{ keyName: 'Billing export', ipWhitelist: 'example.com' }, PASSWORD, 400, 'ip_parse_failure', ipParseFailure('example.com')],
    ] as const) {
      const res = await create(h(), o.headers, body, password);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject({ error, data: { message } });
    }
    const missing = await h().app.inject({ method: 'POST', url: '/account/api-keys', headers: o.headers, payload: { keyName: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.message).toBe(API_KEY_MESSAGES.passwordRequired);
    expect(await list(o.headers)).toEqual([]);
  });

  it('creates a key, answers its secret once and stores only a hash', async () => {
    const o = await owner();
    const res = await create(h(), o.headers, { keyName: ' Billing export ', ipWhitelist: '127.0.0.1\n10.0.0.0/8  192.168.1.0/255.255.255.0 2001:db8::/32' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      keyName: 'Billing export',
      ipWhitelist: ['127.0.0.1', '10.0.0.0/8', '192.168.1.0/255.255.255.0', '2001:db8::/32'],
      status: 'VALID',
      lastUsedAt: null,
    });
    expect(data.key).toMatch(/^vppk_[\w-]{43}$/);
    const keys = await list(o.headers);
    expect(keys).toEqual([
      {
        keyId: data.keyId,
        keyName: 'Billing export',
        ipWhitelist: data.ipWhitelist,
        scopes: READ_ONLY_PERMISSIONS,
        openadrScopes: [],
        status: 'VALID',
        createdAt: data.createdAt,
        lastUsedAt: null,
      },
    ]);
    const row = await h().ctx.db.selectFrom('api_keys').selectAll().where('id', '=', data.keyId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(data.key);
    expect(JSON.stringify(row)).not.toContain(data.key.slice(5));
  });

  it('lets a key act as its owner, with X-API-Key or as a bearer credential, with its scopes that the owner holds', async () => {
    const o = await owner({ permissions: ['fleet.powerstations.view', 'fleet.node.view'] });
    const { key } = (await create(h(), o.headers, { keyName: 'k', scopes: ['fleet.powerstations.view', 'fleet.node.view'] })).json().data;
    for (const header of ['x-api-key', 'bearer'] as const) {
      const res = await asKey(key, '203.0.113.9', header);
      expect(res.statusCode, header).toBe(200);
      expect(res.json().data).toMatchObject({ id: o.id, permissions: ['fleet.powerstations.view', 'fleet.node.view'] });
    }
    const totals = () => h().app.inject({ method: 'GET', url: '/dashboard/totals', headers: { 'x-api-key': key } });
    expect((await totals()).statusCode).toBe(200);
    // The owner's permissions are read at each call: one taken away leaves the key at once…
    await h().ctx.db.deleteFrom('user_permissions').where('user_id', '=', o.id).where('permission', '=', 'fleet.node.view').execute();
    const gone = await totals();
    expect(gone.statusCode).toBe(403);
    expect(gone.json()).toMatchObject({ error: 'forbidden', data: { message: MESSAGES.notAuthorized } });
    // …and one given later does not join a key whose scopes lack it.
    await h().ctx.db.insertInto('user_permissions').values({ user_id: o.id, permission: 'fleet.administrator' }).execute();
    const edit = await h().app.inject({ method: 'DELETE', url: '/api/powerstations/1', headers: { 'x-api-key': key } });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
    expect((await totals()).statusCode).toBe(200);
    const keys = await list(o.headers);
    expect(keys[0].lastUsedAt).toBeGreaterThan(0);
  });

  it('makes a key read-only by default: the view permissions its owner holds, shown in the key list', async () => {
    const admin = await owner({ permissions: ['fleet.administrator'] });
    const readOnly = (await create(h(), admin.headers, { keyName: 'reports' })).json().data;
    expect(readOnly.scopes).toEqual(READ_ONLY_PERMISSIONS);
    expect(READ_ONLY_PERMISSIONS).toContain('fleet.powerstations.view');
    expect(READ_ONLY_PERMISSIONS.every((p) => p.endsWith('.view'))).toBe(true);
    const asReadOnly = { 'x-api-key': readOnly.key };
    expect((await h().app.inject({ method: 'GET', url: '/v2/powerstations', headers: asReadOnly })).statusCode).toBe(200);
    const write = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: asReadOnly, payload: {} });
    // A view scope opens its area’s gate for reading, never for a change: this write is gated by fleet.node.any.
    const rename = await h().app.inject({ method: 'POST', url: '/api/nodes/1/sitelabel', headers: asReadOnly, payload: { siteLabel: 'x' } });
    expect(rename.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
    const viewer = await owner({ permissions: ['fleet.node.any', 'fleet.powerstations.view', 'fleet.dispatches.edit'] });
    expect((await create(h(), viewer.headers, { keyName: 'k' })).json().data.scopes).toEqual(['fleet.powerstations.view']);
    // Chosen scopes, in either spelling, are kept in the registry's spelling, once each.
    const chosen = (
      await create(h(), admin.headers, {
        keyName: 'writer',
        scopes: ['fleet.powerstations.edit', 'fleet.customer_information.view', 'fleet.customerInformation.view'],
      })
    ).json().data;
    expect(chosen.scopes).toEqual(['fleet.powerstations.edit', 'fleet.customerInformation.view']);
    expect((await list(admin.headers)).map((k: { keyName: string; scopes: string[] }) => [k.keyName, k.scopes])).toEqual([
      ['writer', ['fleet.powerstations.edit', 'fleet.customerInformation.view']],
      ['reports', READ_ONLY_PERMISSIONS],
    ]);
  });

  it('refuses a scope the owner does not hold, or an unknown one, naming it, and creates nothing', async () => {
    const o = await owner({ permissions: ['fleet.powerstations.view', 'fleet.node.any'] });
    for (const [scopes, error, message] of [
      [['fleet.powerstations.view', 'fleet.powerstations.edit'], 'scope_not_held', scopeNotHeldMessage('fleet.powerstations.edit')],
      [['fleet.administrator'], 'scope_not_held', scopeNotHeldMessage('fleet.administrator')],
      // An area gate the owner passes (fleet.any) is not a permission they hold.
      [['fleet.any'], 'scope_not_held', scopeNotHeldMessage('fleet.any')],
      [['fleet.everything'], 'unknown_permission', unknownPermissionMessage('fleet.everything')],
    ] as const) {
      const res = await create(h(), o.headers, { keyName: 'k', scopes });
      expect(res.statusCode, JSON.stringify(scopes)).toBe(400);
      expect(res.json()).toMatchObject({ status: 'ERROR', error, data: { message } });
    }
    expect(await list(o.headers)).toEqual([]);
  });

  it('counts wrong passwords typed for a key against the account from that address, like sign-ins, and no other address', async () => {
    const o = await owner();
    const tooMany = MESSAGES.tooManyAttempts.replace('{minutes}', '15');
    const from = (remoteAddress: string, password: string) =>
      h().app.inject({ method: 'POST', url: `/account/api-keys?password=${b64(password)}`, headers: o.headers, payload: { keyName: 'k' }, remoteAddress });
    const { keyId } = (await from('127.0.0.1', PASSWORD)).json().data;
    for (let i = 0; i < 4; i++) expect((await from('10.1.1.1', 'Wrong-Password-1')).statusCode).toBe(400);
    const revoke = await h().app.inject({
      method: 'DELETE',
      url: `/account/api-keys/${keyId}?password=${b64('x')}`,
      headers: o.headers,
      remoteAddress: '10.1.1.1',
    });
    expect(revoke.json()).toMatchObject({ error: 'password_rejected' });
    const locked = await from('10.1.1.1', PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ status: 'ERROR', error: 'too_many_requests', data: { message: tooMany } });
    const signIn = (remoteAddress: string) =>
      h()
        .captcha(o.username)
        .then((captchaToken) =>
          h().app.inject({ method: 'POST', url: '/auth/login/', payload: { username: o.username, password: PASSWORD, captchaToken }, remoteAddress }),
        );
    expect((await signIn('10.1.1.1')).json().data.message).toBe(tooMany);
    // The owner elsewhere is not locked out.
    expect((await from('10.1.1.2', PASSWORD)).statusCode).toBe(200);
    expect((await signIn('10.1.1.2')).statusCode).toBe(200);
  });

  it('refuses a key from an address outside its allow-list', async () => {
    const o = await owner();
    const { key } = (await create(h(), o.headers, { keyName: 'k', ipWhitelist: ['10.0.0.0/8', '192.168.1.0/255.255.255.0', '2001:db8::1'] })).json().data;
    for (const address of ['10.1.2.3', '::ffff:10.1.2.3', '192.168.1.77', '2001:db8::1']) expect((await asKey(key, address)).statusCode, address).toBe(200);
    for (const address of ['127.0.0.1', '11.0.0.1', '192.168.2.1', '2001:db8::2']) {
      const res = await asKey(key, address);
      expect(res.statusCode, address).toBe(403);
      expect(res.json()).toMatchObject({ error: 'address_not_allowed', data: { message: `This API key may not be used from ${address}.` } });
    }
  });

  it('revokes a key with the password, after which it stops at once', async () => {
    const o = await owner();
    const { key, keyId } = (await create(h(), o.headers, { keyName: 'k' })).json().data;
    expect((await asKey(key)).statusCode).toBe(200);
    const wrong = await h().app.inject({ method: 'DELETE', url: `/account/api-keys/${keyId}?password=${b64('Wrong-Password-1')}`, headers: o.headers });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'password_rejected', data: { message: 'Incorrect password.' } });
    expect((await asKey(key)).statusCode).toBe(200);

    const res = await h().app.inject({ method: 'DELETE', url: `/account/api-keys/${keyId}?password=${b64(PASSWORD)}`, headers: o.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    const after = await asKey(key);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: 'invalid_api_key', data: { message: 'This API key is not valid, or has been revoked.' } });
    expect((await list(o.headers))[0].status).toBe('REVOKED');
  });

  it('refuses a made-up key and the key of a deactivated owner', async () => {
    expect((await asKey('vppk_madeupmadeupmadeupmadeupmadeupmadeupmadeup')).statusCode).toBe(401);
    const o = await owner();
    const { key } = (await create(h(), o.headers, { keyName: 'k' })).json().data;
    await h().ctx.db.updateTable('users').set({ active: 0 }).where('id', '=', o.id).execute();
    expect((await asKey(key)).statusCode).toBe(401);
  });

  it("does not show or revoke another user's or another organisation's key", async () => {
    const a = await owner();
    const { keyId } = (await create(h(), a.headers, { keyName: 'mine' })).json().data;
    const colleague = await h().user(a.org);
    const stranger = await owner();
    for (const headers of [await h().bearer(colleague.username), stranger.headers]) {
      expect(await list(headers)).toEqual([]);
      const res = await h().app.inject({ method: 'DELETE', url: `/account/api-keys/${keyId}?password=${b64(PASSWORD)}`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().data.message).toBe('No such API key.');
    }
    expect((await list(a.headers))[0].status).toBe('VALID');
  });

  it('refuses every account-security call made with a key, even from its allowed address and for an administrator, and changes nothing', async () => {
    // The attack of issue 9, item 3: an administrator's key, allowed from one address, created an
    // administrator user (whose welcome link then set a password), minted keys and changed e-mails.
    const o = await owner({ permissions: ['fleet.administrator'] });
    const colleague = await h().user(o.org, { permissions: ['fleet.administrator'] });
    const { key } = (await create(h(), o.headers, { keyName: 'k', ipWhitelist: '10.9.8.7', scopes: ['fleet.administrator'] })).json().data;
    const person = { givenName: 'Mal', surname: 'Lory', permissions: ['fleet.administrator'] };
    for (const [method, url, payload] of [
      ['GET', '/api/users', undefined],
      ['GET', `/api/users/${colleague.id}`, undefined],
      ['GET', '/api/users/available-permissions', undefined],
      ['POST', '/api/users', { ...person, email: 'mallory@example.test' }],
      ['PUT', `/api/users/${colleague.id}`, { ...person, email: 'mallory@example.test' }],
      ['GET', '/account/api-keys', undefined],
      ['POST', `/account/api-keys?password=${b64(PASSWORD)}`, { keyName: 'more' }],
      ['DELETE', `/account/api-keys/1?password=${b64(PASSWORD)}`, undefined],
      ['POST', '/password/inline-change', { oldPassword: PASSWORD, newPassword: 'Another-Pass-77', passwordConfirmation: 'Another-Pass-77' }],
      ['GET', '/account/mfa/settings', undefined],
      ['POST', '/auth/mfa/code-preference', { codePreference: 'APP' }],
      ['POST', '/auth/mfa/verify-code', { totpCode: '123456' }],
      ['POST', '/account/timezone?timezone=Australia/Perth', undefined],
      ['POST', '/account/alertEmail?frequency=NEVER', undefined],
    ] as const) {
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
        const res = await h().app.inject({ method, url, headers, payload, remoteAddress: '10.9.8.7' });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ status: 'ERROR', error: 'session_required', data: { message: API_KEY_MESSAGES.sessionRequired } });
      }
    }
    expect(await mailTo(h().ctx, 'mallory@example.test')).toEqual([]);
    const users = (await h().app.inject({ method: 'GET', url: '/api/users', headers: o.headers })).json().data.users;
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual([`${colleague.username}@example.test`, `${o.username}@example.test`].sort());
    expect(await list(o.headers)).toHaveLength(1);
    // Reading the account stays open to the key.
    const account = await h().app.inject({ method: 'GET', url: '/account', headers: { 'x-api-key': key }, remoteAddress: '10.9.8.7' });
    expect(account.statusCode).toBe(200);
    expect(account.json().data.timezone).toBeNull();
  });

  it('never writes the password of a key call, or a reset token, to the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(h().ctx, { logger: { level: 'info', stream } });
    await app.ready();
    try {
      const o = await owner();
      const encoded = Buffer.from(PASSWORD).toString('base64');
      await app.inject({ method: 'POST', url: `/account/api-keys?password=${encodeURIComponent(encoded)}`, headers: o.headers, payload: { keyName: 'k' } });
      await app.inject({ method: 'GET', url: '/password/change/verify_token?token=SECRET-TOKEN-123' });
      const log = lines.join('');
      expect(log).toContain('/account/api-keys?password=[REDACTED]');
      expect(log).toContain('verify_token?token=[REDACTED]');
      for (const secret of [encoded, encodeURIComponent(encoded), PASSWORD, 'SECRET-TOKEN-123', o.headers.authorization.slice(7)])
        expect(log).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
