import { MESSAGES } from '@vpp/shared/messages';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { notHeldPermissionMessage, outrankedUserMessage, USER_MESSAGES, unknownPermissionMessage } from '@vpp/shared/users/schemas';
import { expect, it } from 'vitest';
import { describeEachDatabase, PASSWORD } from '../../test/harness.ts';
import { linkIn, mailTo } from '../../test/outbox.ts';

const ALL = PERMISSIONS.map((p) => p.name);

describeEachDatabase('organisation users', (h) => {
  async function admin() {
    const org = await h().org();
    const u = await h().user(org, { permissions: ['fleet.administrator'] });
    return { ...u, org, headers: await h().bearer(u.username) };
  }
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers?: Record<string, string>, payload?: object) =>
    h().app.inject({ method, url, headers, payload });
  let n = 0;
  const body = (extra: object = {}) => ({
    givenName: 'Grace',
    surname: 'Hopper',
    email: `grace${++n}@example.test`,
    permissions: ['fleet.node.view'],
    ...extra,
  });

  it('answers 401 to every users call without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', '/api/users/1'],
      ['GET', '/api/users/available-permissions'],
      ['POST', '/api/users'],
      ['PUT', '/api/users/1'],
    ] as const) {
      const res = await call(method, url, undefined, method === 'GET' ? undefined : body());
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('answers 403 to a user without fleet.myReposit.users, and lets my_reposit.users through', async () => {
    const org = await h().org();
    const u = await h().user(org, { permissions: ['fleet.node.any', 'fleet.myReposit.billing'] });
    const headers = await h().bearer(u.username);
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', `/api/users/${u.id}`],
      ['GET', '/api/users/available-permissions'],
      ['POST', '/api/users'],
      ['PUT', `/api/users/${u.id}`],
    ] as const) {
      const res = await call(method, url, headers, method === 'GET' ? undefined : body());
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const snake = await h().user(org, { permissions: ['fleet.my_reposit.users'] });
    expect((await call('GET', '/api/users', await h().bearer(snake.username))).statusCode).toBe(200);
  });

  it('lists the users of the caller’s organisation only, a page at a time', async () => {
    const a = await admin();
    for (const name of ['Zed', 'Amy', 'Bob']) await call('POST', '/api/users', a.headers, body({ surname: name }));
    const other = await admin();
    const res = await call('GET', '/api/users?limit=2&offset=0', a.headers);
    expect(res.statusCode).toBe(200);
    const { users, total } = res.json().data;
    expect(total).toBe(4);
    expect(users.map((u: { surname: string }) => u.surname)).toEqual(['Amy', 'Bob']);
    const page2 = (await call('GET', '/api/users?limit=2&offset=2', a.headers)).json().data.users;
    expect(page2.map((u: { surname: string }) => u.surname)).toEqual([a.username, 'Zed']);
    expect(page2.find((u: { id: number }) => u.id === a.id).permissions).toEqual(['fleet.administrator']);
    const theirs = (await call('GET', '/api/users', other.headers)).json().data;
    expect(theirs.total).toBe(1);
    const bad = await call('GET', '/api/users?limit=0', a.headers);
    expect(bad.statusCode).toBe(400);
  });

  it('answers the permissions the caller may grant: all for an administrator, only those held otherwise', async () => {
    const a = await admin();
    const all = (await call('GET', '/api/users/available-permissions', a.headers)).json().data.permissions;
    expect(all.map((p: { name: string }) => p.name)).toEqual(ALL);
    expect(all[0]).toEqual({ name: 'fleet.administrator', displayName: 'Administrator', description: 'Holds every permission of the organisation.' });
    const org = await h().org();
    const m = await h().user(org, { permissions: ['fleet.myReposit.users', 'fleet.node.*'] });
    const some = (await call('GET', '/api/users/available-permissions', await h().bearer(m.username))).json().data.permissions;
    // Not fleet.any: its area gate lets these permissions through to node pages, but they do not include it.
    expect(some.map((p: { name: string }) => p.name)).toEqual([
      'fleet.myReposit.users',
      'fleet.node.any',
      'fleet.node.view',
      'fleet.node.data.view',
      'fleet.node.sga_data.view',
      'fleet.node.inverter.portal',
    ]);
  });

  it('refuses a user form with a missing or invalid field, saying which, and creates nothing', async () => {
    const a = await admin();
    for (const [payload, message] of [
      [body({ givenName: '' }), USER_MESSAGES.givenNameRequired],
      [body({ givenName: undefined }), USER_MESSAGES.givenNameRequired],
      [body({ surname: '  ' }), USER_MESSAGES.surnameRequired],
      [body({ email: '' }), USER_MESSAGES.emailRequired],
      [body({ email: 'grace-at-example' }), USER_MESSAGES.emailInvalid],
      [body({ givenName: 'G'.repeat(300) }), 'The given name can be at most 200 characters.'],
      [body({ surname: 'H'.repeat(201) }), 'The surname can be at most 200 characters.'],
      [body({ email: `${'g'.repeat(250)}@example.test` }), 'The email address can be at most 254 characters.'],
      [body({ permissions: ['fleet.teleport'] }), unknownPermissionMessage('fleet.teleport')],
      [body({ email: `${a.username}@example.test` }), USER_MESSAGES.emailTaken],
    ] as const) {
      const res = await call('POST', '/api/users', a.headers, payload);
      // An address another user has is a conflict (409), not a mistake in the form.
      expect(res.statusCode, JSON.stringify(payload)).toBe(message === USER_MESSAGES.emailTaken ? 409 : 400);
      expect(res.json().data.message).toBe(message);
    }
    expect((await call('GET', '/api/users', a.headers)).json().data.total).toBe(1);
  });

  it('refuses another organisation’s e-mail address without saying that it exists there, and pauses after five such refusals', async () => {
    const a = await admin();
    const b = await admin();
    const elsewhere = `${b.username}@example.test`;
    const colleague = await h().user(a.org, { permissions: ['fleet.node.view'] });
    for (const [method, url] of [
      ['POST', '/api/users'],
      ['PUT', `/api/users/${colleague.id}`],
    ] as const) {
      const res = await call(method, url, a.headers, body({ email: elsewhere }));
      expect(res.statusCode, method).toBe(409);
      expect(res.json()).toMatchObject({ status: 'ERROR', error: 'email_unavailable', data: { message: USER_MESSAGES.emailUnavailable } });
      expect(res.body).not.toContain('exists');
    }
    // An address of the caller's own organisation is named: its list shows it anyway.
    const own = await call('POST', '/api/users', a.headers, body({ email: `${colleague.username}@example.test` }));
    expect(own.json()).toMatchObject({ error: 'email_taken', data: { message: USER_MESSAGES.emailTaken } });
    expect(own.statusCode).toBe(409);
    for (let i = 0; i < 3; i++) expect((await call('POST', '/api/users', a.headers, body({ email: elsewhere }))).statusCode).toBe(409);
    const paused = await call('POST', '/api/users', a.headers, body());
    expect(paused.statusCode).toBe(429);
    expect(paused.json().data.message).toBe(USER_MESSAGES.tooManyUnavailable.replace('{minutes}', '15'));
    expect((await call('GET', '/api/users', a.headers)).json().data.total).toBe(2);
    expect((await call('GET', `/api/users/${colleague.id}`, a.headers)).json().data.email).toBe(`${colleague.username}@example.test`);
    // Another organisation is not paused.
    expect((await call('POST', '/api/users', b.headers, body())).statusCode).toBe(200);
  });

  it('creates a user and e-mails them a link that sets their password once', async () => {
    const a = await admin();
    const payload = body({ email: 'New.Person@Example.test', permissions: ['fleet.node.view', 'fleet.dispatches.view', 'fleet.node.view'] });
    const res = await call('POST', '/api/users', a.headers, payload);
    expect(res.statusCode).toBe(200);
    const user = res.json().data;
    expect(user).toEqual({
      id: expect.any(Number),
      givenName: 'Grace',
      surname: 'Hopper',
      email: 'new.person@example.test',
      permissions: ['fleet.dispatches.view', 'fleet.node.view'],
    });
    expect((await call('GET', `/api/users/${user.id}`, a.headers)).json().data).toEqual(user);

    const [mail] = await mailTo(h().ctx, 'new.person@example.test');
    expect(mail.subject).toBe('Your new VPP Console account');
    expect(mail.text).toContain('within 7 days');
    const token = linkIn(mail, '/password/reset').searchParams.get('token');
    // The link is a first password's: the page says 'Set your password'.
    expect((await call('GET', `/password/change/verify_token?token=${token}`)).json()).toEqual({ status: 'OK', valid: true, purpose: 'welcome' });
    const set = await call('POST', `/password/change?token=${token}`, undefined, { password: 'Wattle-Sunset-77', confirmPassword: 'Wattle-Sunset-77' });
    expect(set.statusCode).toBe(200);
    const login = await call('POST', '/auth/login/', undefined, {
      username: 'new.person@example.test',
      password: 'Wattle-Sunset-77',
      captchaToken: await h().captcha(),
    });
    expect(login.statusCode).toBe(200);
    const again = await call('POST', `/password/change?token=${token}`, undefined, { password: 'Other-Pass-99x', confirmPassword: 'Other-Pass-99x' });
    expect(again.statusCode).toBe(400);
  });

  it('does not let a manager grant a permission they do not hold', async () => {
    const org = await h().org();
    const m = await h().user(org, { permissions: ['fleet.myReposit.users', 'fleet.node.view'] });
    const headers = await h().bearer(m.username);
    const res = await call('POST', '/api/users', headers, body({ permissions: ['fleet.node.view', 'fleet.administrator'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(notHeldPermissionMessage('fleet.administrator'));
    const colleague = await h().user(org, { permissions: ['fleet.node.view'] });
    const grant = await call('PUT', `/api/users/${colleague.id}`, headers, body({ permissions: ['fleet.node.view', 'fleet.kitDesigner'] }));
    expect(grant.statusCode).toBe(400);
    expect(grant.json().data.message).toBe(notHeldPermissionMessage('fleet.kitDesigner'));
    const take = await call('PUT', `/api/users/${colleague.id}`, headers, body({ permissions: [] }));
    expect(take.statusCode).toBe(200);
    expect(take.json().data.permissions).toEqual([]);
  });

  it('never lets users widen their own permissions, whichever spelling they use, and changes nothing', async () => {
    const org = await h().org();
    const m = await h().user(org, { permissions: ['fleet.myReposit.users', 'fleet.node.view'] });
    const headers = await h().bearer(m.username);
    const me = { givenName: 'Test', surname: m.username, email: `${m.username}@example.test` };
    for (const p of ['fleet.administrator', 'fleet.kitDesigner', 'fleet.customer_information.edit', 'fleet.node.data.view']) {
      const res = await call('PUT', `/api/users/${m.id}`, headers, { ...me, permissions: ['fleet.myReposit.users', 'fleet.node.view', p] });
      expect(res.statusCode, p).toBe(400);
      expect(res.json()).toMatchObject({ error: 'permission_not_held', data: { message: notHeldPermissionMessage(p) } });
    }
    expect((await call('GET', `/api/users/${m.id}`, headers)).json().data.permissions).toEqual(['fleet.myReposit.users', 'fleet.node.view']);
    // Giving up a permission is allowed; taking it back afterwards is widening, and refused.
    expect((await call('PUT', `/api/users/${m.id}`, headers, { ...me, permissions: ['fleet.myReposit.users'] })).statusCode).toBe(200);
    const back = await call('PUT', `/api/users/${m.id}`, await h().bearer(m.username), { ...me, permissions: ['fleet.myReposit.users', 'fleet.node.view'] });
    expect(back.statusCode).toBe(400);
    expect(back.json().data.message).toBe(notHeldPermissionMessage('fleet.node.view'));
  });

  it('does not let a manager widen their own permissions through an area gate (fleet.any) they pass but do not hold', async () => {
    const org = await h().org();
    const m = await h().user(org, { permissions: ['fleet.myReposit.users'] });
    const headers = await h().bearer(m.username);
    const me = (await call('GET', `/api/users/${m.id}`, headers)).json().data;
    for (const p of ['fleet.any', 'fleet.node.any']) {
      const res = await call('PUT', `/api/users/${m.id}`, headers, {
        givenName: me.givenName,
        surname: me.surname,
        email: me.email,
        permissions: ['fleet.myReposit.users', p],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(notHeldPermissionMessage(p));
    }
    expect((await call('GET', `/api/users/${m.id}`, headers)).json().data.permissions).toEqual(['fleet.myReposit.users']);
    // Nor offered as grantable, nor grantable to someone else.
    const offered = (await call('GET', '/api/users/available-permissions', headers)).json().data.permissions.map((p: { name: string }) => p.name);
    expect(offered).toEqual(['fleet.myReposit.users']);
    const other = await call('POST', '/api/users', headers, body({ permissions: ['fleet.any'] }));
    expect(other.statusCode).toBe(400);
    expect((await call('GET', '/v2/nodes?limit=1', headers)).statusCode).toBe(403);
  });

  it('answers 403 to a manager editing a user who holds a permission the manager does not, and changes nothing', async () => {
    const org = await h().org();
    const m = await h().user(org, { permissions: ['fleet.myReposit.users'] });
    const headers = await h().bearer(m.username);
    const target = await h().user(org, { permissions: ['fleet.administrator'] });
    const before = (await call('GET', `/api/users/${target.id}`, headers)).json().data;
    // A new e-mail address, then a reset link to it, would hand the manager the administrator's account.
    for (const payload of [
      body({ email: 'attacker@example.test', permissions: ['fleet.administrator'] }),
      body({ email: `${target.username}@example.test`, permissions: ['fleet.administrator'] }),
      body({ email: `${target.username}@example.test`, permissions: [] }),
    ]) {
      const res = await call('PUT', `/api/users/${target.id}`, headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json()).toMatchObject({ status: 'ERROR', error: 'forbidden', data: { message: outrankedUserMessage('fleet.administrator') } });
    }
    const colleague = await h().user(org, { permissions: ['fleet.myReposit.users', 'fleet.kitDesigner'] });
    const res = await call('PUT', `/api/users/${colleague.id}`, headers, body({ permissions: ['fleet.myReposit.users', 'fleet.kitDesigner'] }));
    expect(res.statusCode).toBe(403);
    expect(res.json().data.message).toBe(outrankedUserMessage('fleet.kitDesigner'));
    expect((await call('GET', `/api/users/${target.id}`, headers)).json().data).toEqual(before);
    expect((await call('POST', '/password/reset', undefined, { email: 'attacker@example.test' })).statusCode).toBe(200);
    expect(await mailTo(h().ctx, 'attacker@example.test')).toEqual([]);
    // Holding every permission the user holds is enough, and an administrator holds them all.
    const peer = await h().user(org, { permissions: ['fleet.myReposit.users'] });
    expect((await call('PUT', `/api/users/${peer.id}`, headers, body({ permissions: ['fleet.myReposit.users'] }))).statusCode).toBe(200);
    const admin = await h().user(org, { permissions: ['fleet.administrator'] });
    const adminHeaders = await h().bearer(admin.username);
    expect((await call('PUT', `/api/users/${colleague.id}`, adminHeaders, body({ permissions: ['fleet.kitDesigner'] }))).statusCode).toBe(200);
  });

  it('moves the username along with the e-mail address of a user created here', async () => {
    const a = await admin();
    const created = (await call('POST', '/api/users', a.headers, body({ email: 'old.address@example.test' }))).json().data;
    const [mail] = await mailTo(h().ctx, 'old.address@example.test');
    const token = linkIn(mail, '/password/reset').searchParams.get('token');
    await call('POST', `/password/change?token=${token}`, undefined, { password: 'Wattle-Sunset-77', confirmPassword: 'Wattle-Sunset-77' });

    const res = await call('PUT', `/api/users/${created.id}`, a.headers, body({ email: 'new.address@example.test' }));
    expect(res.statusCode).toBe(200);
    const signIn = async (username: string) =>
      call('POST', '/auth/login/', undefined, { username, password: 'Wattle-Sunset-77', captchaToken: await h().captcha() });
    const fresh = await signIn('new.address@example.test');
    expect(fresh.statusCode).toBe(200);
    const account = (await call('GET', '/account', { authorization: `Bearer ${fresh.json().access_token}` })).json().data;
    expect(account).toMatchObject({ username: 'new.address@example.test', email: 'new.address@example.test' });
    const stale = await signIn('old.address@example.test');
    expect(stale.statusCode).toBe(401);
    expect(stale.json().data.message).toBe(MESSAGES.loginFailed);
    // The old address is free again for someone else.
    expect((await call('POST', '/api/users', a.headers, body({ email: 'old.address@example.test' }))).statusCode).toBe(200);
  });

  it('keeps a username that is not the e-mail address when the address changes', async () => {
    const a = await admin();
    const u = await h().user(a.org, { permissions: ['fleet.node.view'] });
    expect((await call('PUT', `/api/users/${u.id}`, a.headers, body({ email: 'elsewhere@example.test' }))).statusCode).toBe(200);
    const login = await call('POST', '/auth/login/', undefined, { username: u.username, password: PASSWORD, captchaToken: await h().captcha() });
    expect(login.statusCode).toBe(200);
  });

  it('updates a user: names, email and permissions, and the change applies at once', async () => {
    const a = await admin();
    const u = await h().user(a.org, { permissions: ['fleet.node.view'] });
    const theirHeaders = await h().bearer(u.username);
    const res = await call('PUT', `/api/users/${u.id}`, a.headers, {
      givenName: 'Ada',
      surname: 'Lovelace',
      email: 'ada.l@example.test',
      permissions: ['fleet.powerstations.view'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: u.id,
      givenName: 'Ada',
      surname: 'Lovelace',
      email: 'ada.l@example.test',
      permissions: ['fleet.powerstations.view'],
    });
    const account = (await call('GET', '/account', theirHeaders)).json().data;
    expect(account).toMatchObject({ name: 'Ada Lovelace', email: 'ada.l@example.test', permissions: ['fleet.powerstations.view'] });
    const login = await call('POST', '/auth/login/', undefined, { username: 'ada.l@example.test', password: PASSWORD, captchaToken: await h().captcha() });
    expect(login.statusCode).toBe(200);
  });

  it('refuses to let users take the administrator permission from themselves', async () => {
    const a = await admin();
    const res = await call('PUT', `/api/users/${a.id}`, a.headers, body({ email: `${a.username}@example.test`, permissions: ['fleet.myReposit.users'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(USER_MESSAGES.selfAdministrator);
    expect((await call('GET', `/api/users/${a.id}`, a.headers)).json().data.permissions).toEqual(['fleet.administrator']);
    // An administrator may still edit their own names, and take it from someone else.
    const self = await call('PUT', `/api/users/${a.id}`, a.headers, body({ email: `${a.username}@example.test`, permissions: ['fleet.administrator'] }));
    expect(self.statusCode).toBe(200);
    const b = await h().user(a.org, { permissions: ['fleet.administrator'] });
    expect((await call('PUT', `/api/users/${b.id}`, a.headers, body({ permissions: [] }))).statusCode).toBe(200);
  });

  it('answers 404 for another organisation’s user, and changes nothing', async () => {
    const a = await admin();
    const b = await admin();
    const get = await call('GET', `/api/users/${b.id}`, a.headers);
    expect(get.statusCode).toBe(404);
    expect(get.json().data.message).toBe('No such user.');
    const put = await call('PUT', `/api/users/${b.id}`, a.headers, body());
    expect(put.statusCode).toBe(404);
    expect((await call('GET', `/api/users/${b.id}`, b.headers)).json().data.givenName).toBe('Test');
    const bad = await call('GET', '/api/users/abc', a.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe('The user id must be a whole number from 1 to 2147483647.');
  });
});
