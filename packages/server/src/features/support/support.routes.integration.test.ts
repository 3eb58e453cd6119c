import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@vpp/shared/messages';
import { SUPPORT_MESSAGES, supportRateLimitMessage } from '@vpp/shared/support/messages';
import { simpleParser } from 'mailparser';
import { expect, it } from 'vitest';
import { outboxDir } from '../../platform/mail.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { mailTo } from '../../test/outbox.ts';

const REQUEST = {
  subject: 'Battery not charging',
  category: 'NODE',
  description: 'The battery has stayed at 12% since yesterday morning.\nSolar looks normal.',
  contactName: 'Rita Retailer',
  contactEmail: 'rita.desk@example.test',
  contactPhone: '+61 2 9000 0000',
};

describeEachDatabase('support requests', (h) => {
  async function member(permissions?: string[]) {
    const org = await h().org('RETAILER', `Sunny ${Math.random().toString(36).slice(2, 6)}`);
    const u = await h().user(org, permissions ? { permissions } : {});
    return { org, ...u, headers: await h().bearer(u.username) };
  }
  const send = (headers: Record<string, string>, payload: object) => h().app.inject({ method: 'POST', url: '/support/requests', headers, payload });
  const list = async (headers: Record<string, string>) => (await h().app.inject({ method: 'GET', url: '/support/requests', headers })).json().data;

  it('stores a request about a node and e-mails it to SUPPORT_EMAIL with the node, replying to the user', async () => {
    const m = await member();
    const n = await node(h(), [m.org], { label: 'Rita’s shed' });
    const res = await send(m.headers, { ...REQUEST, nodeId: n.id });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().data;
    expect(sent).toMatchObject({ subject: REQUEST.subject, category: 'NODE', nodeId: n.id });
    expect(sent.reference).toMatch(/^SR-[2-9A-HJKMNP-Z]{8}$/);
    expect(await list(m.headers)).toEqual({ requests: [sent], total: 1 });

    const row = await h().ctx.db.selectFrom('support_requests').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: m.id, organisation_id: m.org, node_id: n.id, contact_email: REQUEST.contactEmail, description: REQUEST.description });
    expect(row.node_nmi).toMatch(/^4102\d{6}$/);
    expect(row.node_serial).toBe(n.serial);

    const mails = (await mailTo(h().ctx, 'support@localhost')).filter((x) => x.subject === `[${sent.reference}] ${REQUEST.subject}`);
    expect(mails).toHaveLength(1);
    const text = mails[0].text;
    expect(text).toContain(`Support request ${sent.reference}`);
    expect(text).toContain('Category: A node');
    expect(text).toContain(`From: Rita Retailer <rita.desk@example.test>, phone ${REQUEST.contactPhone}`);
    expect(text).toContain(`Node: id ${n.id}, NMI ${row.node_nmi}, serial ${n.serial}`);
    expect(text).toContain('Site: Rita’s shed, ');
    expect(text).toContain(REQUEST.description);
    const parsed = await simpleParser(fs.readFileSync(path.join(outboxDir(h().ctx.config), mails[0].file)));
    expect(parsed.replyTo?.value).toEqual([{ address: 'rita.desk@example.test', name: 'Rita Retailer' }]);
  });

  it('sends a request without a node, and lists only the user’s own requests, newest first', async () => {
    const m = await member();
    const other = await h().user(m.org);
    const first = (await send(m.headers, { ...REQUEST, category: 'BILLING', subject: 'Invoice question' })).json().data;
    const second = (await send(m.headers, { ...REQUEST, category: 'OTHER', subject: 'Something else', contactPhone: undefined })).json().data;
    expect(second.nodeId).toBeNull();
    expect((await list(m.headers)).requests.map((r: { reference: string }) => r.reference)).toEqual([second.reference, first.reference]);
    expect(await list(await h().bearer(other.username))).toEqual({ requests: [], total: 0 });
    const mail = (await mailTo(h().ctx, 'support@localhost')).find((x) => x.subject === `[${second.reference}] Something else`);
    expect(mail?.text).toContain('Node: none chosen');
    expect(mail?.text).toContain('From: Rita Retailer <rita.desk@example.test>\n');
  });

  it('refuses a node of another organisation’s fleet with 404, and stores nothing', async () => {
    const m = await member();
    const theirs = await node(h(), [await h().org('RETAILER', 'Their Energy')]);
    const res = await send(m.headers, { ...REQUEST, nodeId: theirs.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'ERROR', error: 'not_found', data: { message: 'No such node.' } });
    expect(await list(m.headers)).toEqual({ requests: [], total: 0 });
  });

  it('names what is wrong with each field, and stores nothing', async () => {
    const m = await member();
    for (const [patch, message] of [
      [{ subject: '   ' }, SUPPORT_MESSAGES.subjectRequired],
      [{ subject: 'x'.repeat(151) }, SUPPORT_MESSAGES.subjectTooLong],
      [{ subject: 'Two\nlines' }, SUPPORT_MESSAGES.subjectOneLine],
      [{ category: 'URGENT' }, SUPPORT_MESSAGES.categoryRequired],
      [{ category: undefined }, SUPPORT_MESSAGES.categoryRequired],
      [{ description: '' }, SUPPORT_MESSAGES.descriptionRequired],
      [{ description: 'x'.repeat(5001) }, SUPPORT_MESSAGES.descriptionTooLong],
      [{ contactName: '' }, SUPPORT_MESSAGES.nameRequired],
      [{ contactEmail: 'rita at example' }, SUPPORT_MESSAGES.emailInvalid],
      [{ contactEmail: 'rita@example.test\nBcc: x@example.test' }, SUPPORT_MESSAGES.emailInvalid],
      [{ contactPhone: 'call me maybe' }, SUPPORT_MESSAGES.phoneInvalid],
      [{ nodeId: 0 }, 'The node id must be whole numbers from 1 to 2147483647.'],
    ] as const) {
      const res = await send(m.headers, { ...REQUEST, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json(), JSON.stringify(patch)).toMatchObject({ status: 'ERROR', error: 'bad_request', data: { message } });
    }
    expect(await list(m.headers)).toEqual({ requests: [], total: 0 });
  });

  it('allows 5 requests per user per hour, then answers 429 with when to try again', async () => {
    const m = await member();
    for (let i = 1; i <= 5; i++) expect((await send(m.headers, { ...REQUEST, subject: `Request ${i}` })).statusCode).toBe(200);
    const res = await send(m.headers, { ...REQUEST, subject: 'Request 6' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ status: 'ERROR', error: 'too_many_requests', data: { message: supportRateLimitMessage(5, 60) } });
    expect((await list(m.headers)).total).toBe(5);
    // Counted per user: a colleague can still send one.
    const colleague = await h().user(m.org);
    expect((await send(await h().bearer(colleague.username), REQUEST)).statusCode).toBe(200);
    // An hour later the oldest has left the window (counted in the database, across processes).
    await h()
      .ctx.db.updateTable('support_requests')
      .set({ created_at: Math.floor(Date.now() / 1000) - 3601 })
      .where('subject', '=', 'Request 1')
      .execute();
    expect((await send(m.headers, { ...REQUEST, subject: 'Request 6' })).statusCode).toBe(200);
  });

  it('keeps to the limit when requests arrive at once', async () => {
    const m = await member();
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => send(m.headers, { ...REQUEST, subject: `At once ${i}` })));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect((await list(m.headers)).total).toBe(5);
  });

  it('answers 403 without fleet.node.any or fleet.zendesk.edit, and opens to either', async () => {
    const without = await member(['fleet.powerstations.view', 'fleet.myReposit.users']);
    for (const [method, url] of [
      ['GET', '/support/settings'],
      ['GET', '/support/requests'],
      ['POST', '/support/requests'],
    ] as const) {
      const res = await h().app.inject({ method, url, headers: without.headers, payload: method === 'POST' ? REQUEST : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
    }
    for (const permissions of [['fleet.zendesk.edit'], ['fleet.node.view']]) {
      const m = await member(permissions);
      expect((await send(m.headers, REQUEST)).statusCode, permissions[0]).toBe(200);
    }
  });

  it('has no external form by default: the page shows the console’s own', async () => {
    const m = await member();
    const res = await h().app.inject({ method: 'GET', url: '/support/settings', headers: m.headers });
    expect(res.json()).toEqual({ status: 'OK', data: { formUrl: null, maxRequestsPerHour: 5 } });
    expect(String(res.headers['content-security-policy']).split(';')).toContain("frame-src 'self'");
  });
});

describeEachDatabase(
  'support with an external form',
  (h) => {
    it('answers the form’s address and lets the content security policy frame its origin only', async () => {
      const org = await h().org();
      const u = await h().user(org);
      const res = await h().app.inject({ method: 'GET', url: '/support/settings', headers: await h().bearer(u.username) });
      expect(res.json().data).toEqual({ formUrl: 'https://help.example.test/hc/requests/new?brand=vpp', maxRequestsPerHour: 2 });
      const directives = String(res.headers['content-security-policy']).split(';');
      expect(directives).toContain("frame-src 'self' https://help.example.test");
    });
  },
  { SUPPORT_FORM_URL: 'https://help.example.test/hc/requests/new?brand=vpp', SUPPORT_MAX_REQUESTS_PER_HOUR: '2' },
);
