import { NOTIFICATION_MESSAGES } from '@vpp/shared/notifications/schemas';
import { expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { createWorker } from '../../platform/jobs.ts';
import { mailJob } from '../../platform/mail.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { mailTo } from '../../test/outbox.ts';
import { DIGEST_JOB, digestJob, notifyOrganisation, notifyUser, sendDigests } from './notifications.service.ts';

describeEachDatabase('notifications', (h) => {
  async function member(frequency = 'NEVER', permissions?: string[]) {
    const org = await h().org();
    const u = await h().user(org, { permissions });
    await h().ctx.db.updateTable('users').set({ alert_email_frequency: frequency, timezone: 'Australia/Sydney' }).where('id', '=', u.id).execute();
    return { ...u, org, email: `${u.username}@example.test`, headers: await h().bearer(u.username) };
  }
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers?: Record<string, string>, payload?: object) =>
    h().app.inject({ method, url, headers, payload });
  const list = async (headers: Record<string, string>, qs = '') => (await call('GET', `/account/notifications${qs}`, headers)).json().data;

  it('answers 401 to every notification call without a token', async () => {
    for (const [method, url] of [
      ['GET', '/account/notifications'],
      ['GET', '/account/notifications/1'],
      ['POST', '/account/notifications/1/mark-read'],
      ['POST', '/account/notifications/1/mark-unread'],
      ['PUT', '/account/notifications'],
    ] as const) {
      const res = await call(method, url, undefined, method === 'PUT' ? { markRead: true } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('notifies every active user of an organisation, newest first, and nobody else', async () => {
    const a = await member();
    const colleague = await h().user(a.org);
    const off = await h().user(a.org);
    await h().ctx.db.updateTable('users').set({ active: 0 }).where('id', '=', off.id).execute();
    const stranger = await member();
    expect(await notifyOrganisation(h().ctx, a.org, { summary: 'Node 1001 is offline', body: 'It stopped reporting at **10:05**.' })).toBe(2);
    await notifyUser(h().ctx, a.id, { summary: 'Node 1001 is back online', body: 'Reporting again.' });
    const mine = await list(a.headers);
    expect(mine.total).toBe(2);
    expect(mine.unread).toBe(2);
    expect(mine.notifications.map((n: { summary: string }) => n.summary)).toEqual(['Node 1001 is back online', 'Node 1001 is offline']);
    expect(mine.notifications[1]).toEqual({
      id: expect.any(Number),
      createdAt: expect.any(Number),
      summary: 'Node 1001 is offline',
      body: 'It stopped reporting at **10:05**.',
      read: false,
    });
    expect((await list(await h().bearer(colleague.username))).total).toBe(1);
    expect((await list(stranger.headers)).total).toBe(0);
  });

  it('notifies only the users holding a permission when one is given', async () => {
    const a = await member('NEVER', ['fleet.node.view']);
    const b = await h().user(a.org, { permissions: ['fleet.powerstations.view'] });
    expect(await notifyOrganisation(h().ctx, a.org, { summary: 'Node offline', body: '' }, { permission: 'fleet.node.any' })).toBe(1);
    expect((await list(a.headers)).total).toBe(1);
    expect((await list(await h().bearer(b.username))).total).toBe(0);
  });

  it('opens one notification, and answers 404 for someone else’s', async () => {
    const a = await member();
    const b = await member();
    await notifyUser(h().ctx, a.id, { summary: 'S', body: 'B' });
    const [n] = (await list(a.headers)).notifications;
    const res = await call('GET', `/account/notifications/${n.id}`, a.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', data: n });
    for (const [method, url] of [
      ['GET', `/account/notifications/${n.id}`],
      ['POST', `/account/notifications/${n.id}/mark-read`],
      ['POST', `/account/notifications/${n.id}/mark-unread`],
    ] as const) {
      const other = await call(method, url, b.headers);
      expect(other.statusCode, url).toBe(404);
      expect(other.json().data.message).toBe('No such notification.');
    }
    const bad = await call('GET', '/account/notifications/abc', a.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe('The notification id must be a whole number from 1 to 2147483647.');
    expect((await list(a.headers)).unread).toBe(1);
  });

  it('marks one read and unread, and all read', async () => {
    const a = await member();
    for (const s of ['one', 'two', 'three']) await notifyUser(h().ctx, a.id, { summary: s, body: '' });
    const [n] = (await list(a.headers)).notifications;
    expect((await call('POST', `/account/notifications/${n.id}/mark-read`, a.headers)).json()).toEqual({ status: 'OK' });
    expect((await call('GET', `/account/notifications/${n.id}`, a.headers)).json().data.read).toBe(true);
    expect((await list(a.headers)).unread).toBe(2);
    await call('POST', `/account/notifications/${n.id}/mark-unread`, a.headers);
    expect((await list(a.headers)).unread).toBe(3);

    for (const payload of [{}, { markRead: false }]) {
      const bad = await call('PUT', '/account/notifications', a.headers, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data.message).toBe(NOTIFICATION_MESSAGES.markAllRequired);
    }
    expect((await list(a.headers)).unread).toBe(3);
    expect((await call('PUT', '/account/notifications', a.headers, { markRead: true })).json()).toEqual({ status: 'OK' });
    const after = await list(a.headers);
    expect(after.unread).toBe(0);
    expect(after.notifications.every((x: { read: boolean }) => x.read)).toBe(true);
  });

  it('pages the list with limit and offset', async () => {
    const a = await member();
    for (let i = 1; i <= 12; i++) await notifyUser(h().ctx, a.id, { summary: `n${i}`, body: '' });
    const first = await list(a.headers);
    expect(first.notifications).toHaveLength(10);
    const second = await list(a.headers, '?limit=10&offset=10');
    expect(second.notifications).toHaveLength(2);
    expect(second.total).toBe(12);
  });

  it('e-mails a NOW user at once, and a NEVER user never', async () => {
    const now = await member('NOW');
    const never = await h().user(now.org);
    await notifyOrganisation(h().ctx, now.org, { summary: 'Node 2002 is offline', body: 'Since 09:00.' });
    const [mail] = await mailTo(h().ctx, now.email);
    expect(mail.subject).toBe('VPP Console alert: Node 2002 is offline');
    expect(mail.text).toContain('Since 09:00.');
    expect(mail.text).toMatch(/\/user\/notifications\/\d+/);
    expect(await mailTo(h().ctx, `${never.username}@example.test`)).toEqual([]);
    // A digest later does not send it again.
    await sendDigests(h().ctx, nowS() + 7 * 86400);
    expect(await mailTo(h().ctx, now.email)).toHaveLength(1);
  });

  it('gathers notifications into hourly and daily digests when each comes due', async () => {
    const hourly = await member('HOURLY');
    const daily = await h().user(hourly.org);
    await h().ctx.db.updateTable('users').set({ alert_email_frequency: 'DAILY', timezone: 'Australia/Perth' }).where('id', '=', daily.id).execute();
    // Two notifications just now; the digest runs at the next hours.
    await notifyOrganisation(h().ctx, hourly.org, { summary: 'Node A offline', body: '' });
    await notifyOrganisation(h().ctx, hourly.org, { summary: 'Node B offline', body: '' });
    const t = nowS();
    const nextHour = Math.floor(t / 3600) * 3600 + 3600;

    await sendDigests(h().ctx, nextHour);
    const [digest] = await mailTo(h().ctx, hourly.email);
    expect(digest.subject).toBe('VPP Console hourly alert digest: 2 notifications');
    expect(digest.text).toContain('- Node A offline');
    // Nothing new: no second hourly digest.
    await sendDigests(h().ctx, nextHour + 3600);
    expect(await mailTo(h().ctx, hourly.email)).toHaveLength(1);

    // The daily user gets theirs at the first run at or after 07:00 Perth, once.
    const perth7 = (() => {
      for (let at = nextHour; ; at += 3600) if (new Date(at * 1000).getUTCHours() === 23) return at;
    })();
    await sendDigests(h().ctx, perth7);
    await sendDigests(h().ctx, perth7 + 3600);
    const dailyMail = await mailTo(h().ctx, `${daily.username}@example.test`);
    expect(dailyMail).toHaveLength(1);
    expect(dailyMail[0].subject).toBe('VPP Console daily alert digest: 2 notifications');
  });

  it('sends a weekly digest at the first run from Monday 07:00 in the user’s time zone, once', async () => {
    const weekly = await member('WEEKLY');
    await notifyUser(h().ctx, weekly.id, { summary: 'Node A offline', body: '' });
    await notifyUser(h().ctx, weekly.id, { summary: 'Node B offline', body: '' });
    const nextHour = Math.floor(nowS() / 3600) * 3600 + 3600;
    const monday = (() => {
      for (let at = nextHour; ; at += 3600) {
        const local = new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Sydney', weekday: 'short', hour: 'numeric', hour12: false }).formatToParts(
          at * 1000,
        );
        if (local.find((p) => p.type === 'weekday')?.value === 'Mon' && Number(local.find((p) => p.type === 'hour')?.value) === 7) return at;
      }
    })();
    await sendDigests(h().ctx, monday - 3600);
    expect(await mailTo(h().ctx, `${weekly.username}@example.test`)).toEqual([]);
    await sendDigests(h().ctx, monday);
    await sendDigests(h().ctx, monday + 3600);
    const weeklyMail = await mailTo(h().ctx, `${weekly.username}@example.test`);
    expect(weeklyMail.map((m) => m.subject)).toEqual(['VPP Console weekly alert digest: 2 notifications']);
  });

  it('runs the digest from the hourly job the worker schedules', async () => {
    const u = await member('HOURLY');
    await notifyUser(h().ctx, u.id, { summary: 'Node C offline', body: '' });
    const hour = Math.floor(nowS() / 3600) * 3600 + 3600;
    await h()
      .ctx.db.insertInto('jobs')
      .values({ kind: DIGEST_JOB, payload: JSON.stringify({ at: hour }), status: 'pending', run_at: nowS(), attempts: 0, max_attempts: 5, created_at: nowS() })
      .execute();
    await createWorker(h().ctx, [digestJob, mailJob]).runUntilIdle();
    const [mail] = await mailTo(h().ctx, u.email);
    expect(mail.subject).toBe('VPP Console hourly alert digest: 1 notification');
  });
});
