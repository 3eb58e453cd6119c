import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { epochToLocalDate } from '@vpp/shared/time';
import { parse } from 'csv-parse/sync';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runJobs } from '../../test/outbox.ts';
import { issueInvoice, issueInvoiceJob, queueDueInvoices } from './billing.invoices.ts';

const ALL = PERMISSIONS.map((p) => p.name);
const WITHOUT_ADMIN = ALL.filter((p) => p !== 'fleet.administrator');

describeEachDatabase(
  'billing API',
  (h) => {
    let org: number;
    let other: number;
    let admin: { authorization: string };
    let viewer: { authorization: string };
    let outsider: { authorization: string };
    let nobody: { authorization: string };
    let otherAdmin: { authorization: string };
    let platform: { authorization: string };

    const get = (url: string, headers: Record<string, string> | undefined = admin) => h().app.inject({ method: 'GET', url, headers });
    const item = (orgId: number, eventId: number, nmi: string, day: string, cents: number, type = 'Spot Price', amount = 1.25) => ({
      organisation_id: orgId,
      event_id: eventId,
      event_kind: 'dispatch',
      nmi,
      day,
      ts: Date.parse(`${day}T08:00:00Z`) / 1000,
      type,
      amount,
      rate: cents / 100 / amount,
      cost_cents: cents,
      created_at: 1,
    });
    const event = async (orgId: number, start: number) =>
      (
        await h()
          .ctx.db.insertInto('events')
          .values({ organisation_id: orgId, powerstation_id: null, type: 'DISPATCH', start_time: start, duration: 3600, cancelled_at: null, created_at: start })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    beforeAll(async () => {
      org = await h().org('RETAILER', 'Sunrise Energy');
      other = await h().org('RETAILER', 'Other Power');
      admin = await h().bearer((await h().user(org, { permissions: ALL })).username);
      viewer = await h().bearer((await h().user(org, { permissions: WITHOUT_ADMIN })).username);
      outsider = await h().bearer((await h().user(other, { permissions: WITHOUT_ADMIN })).username);
      otherAdmin = await h().bearer((await h().user(other, { permissions: ALL })).username);
      // The platform's operating organisation: its billing administrators issue the invoices and record their payment.
      platform = await h().bearer((await h().user(await h().org('RETAILER', 'Platform Operator'), { permissions: ALL })).username);
      nobody = await h().bearer((await h().user(org, { permissions: ['fleet.any'] })).username);
      const t = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
      const e1 = await event(org, t('2025-03-10'));
      const e2 = await event(org, t('2025-03-31'));
      const e3 = await event(org, t('2025-04-02'));
      const e4 = await event(other, t('2025-03-10'));
      await h()
        .ctx.db.insertInto('billing_items')
        .values([
          item(org, e1, '4102000001', '2025-03-10', 123),
          item(org, e1, '4102000002', '2025-03-10', 77),
          item(org, e2, '4102000001', '2025-03-31', 250),
          item(org, e2, '4102000003', '2025-03-31', -15, '=HYPERLINK("http://x","a, \\"b\\"")'),
          item(org, e3, '4102000002', '2025-04-02', 1000, ''),
          item(other, e4, '4102000009', '2025-03-10', 999),
        ])
        .execute();
    });

    it('lists the line items of a range, in the organisation only, with totals', async () => {
      const res = await get('/billing/items?start=2025-03-01&end=2025-03-31&limit=10');
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.total).toBe(4);
      expect(data.eventCount).toBe(2);
      expect(data.totalCost).toBe(4.35);
      expect(data.items.map((i: { nmi: string; day: string; cost: number }) => [i.nmi, i.day, i.cost])).toEqual([
        ['4102000001', '2025-03-10', 1.23],
        ['4102000002', '2025-03-10', 0.77],
        ['4102000001', '2025-03-31', 2.5],
        ['4102000003', '2025-03-31', -0.15],
      ]);
      // A blank type shows 'Support Request'.
      const april = (await get('/billing/items?start=2025-04-01&end=2025-04-30')).json().data;
      expect(april.items.map((i: { type: string }) => i.type)).toEqual([BILLING_MESSAGES.supportRequest]);
      const none = (await get('/billing/items?start=2024-01-01&end=2024-01-31')).json().data;
      expect(none).toEqual({ items: [], total: 0, totalCost: 0, eventCount: 0 });
      expect((await get('/billing/items?start=2025-03-01&end=2025-03-31', outsider)).json().data.total).toBe(1);
    });

    it('summarises by month (value, count, events, customers) and counts customers per interval', async () => {
      const monthly = (await get('/billing/monthly')).json().data.months;
      expect(monthly).toEqual([
        { date: '2025-04', start: '2025-04-01', end: '2025-04-30', value: 10, count: 1, eventCount: 1, customerCount: 1 },
        { date: '2025-03', start: '2025-03-01', end: '2025-03-31', value: 4.35, count: 4, eventCount: 2, customerCount: 3 },
      ]);
      expect((await get('/billing/customers')).json().data).toEqual({
        interval: 'month',
        items: [
          { date: '2025-04-01', customerCount: 1 },
          { date: '2025-03-01', customerCount: 3 },
        ],
      });
      expect((await get('/billing/customers?interval=day')).json().data.items).toEqual([
        { date: '2025-04-02', customerCount: 1 },
        { date: '2025-03-31', customerCount: 2 },
        { date: '2025-03-10', customerCount: 2 },
      ]);
      // Weeks start on Monday: 2025-03-31 is a Monday, 2025-04-02 in the same week; 2025-03-10 a Monday.
      expect((await get('/billing/customers?interval=week')).json().data.items).toEqual([
        { date: '2025-03-31', customerCount: 3 },
        { date: '2025-03-10', customerCount: 2 },
      ]);
    });

    it('refuses malformed dates, a start after the end and a date after today with a 400 saying so', async () => {
      const tomorrow = epochToLocalDate(nowS() + 2 * 86400, 'Australia/Sydney');
      const cases: [string, string][] = [
        ['start=2025-02-30&end=2025-03-01', BILLING_MESSAGES.dateFormat('start')],
        ['start=2025-03-01&end=31/03/2025', BILLING_MESSAGES.dateFormat('end')],
        ['end=2025-03-01', BILLING_MESSAGES.dateFormat('start')],
        ['start=2025-03-02&end=2025-03-01', BILLING_MESSAGES.startAfterEnd],
        [`start=2025-03-01&end=${tomorrow}`, BILLING_MESSAGES.afterToday('end')],
        [`start=${tomorrow}&end=${tomorrow}`, BILLING_MESSAGES.afterToday('start')],
      ];
      for (const [q, message] of cases) {
        for (const path of ['/billing/items', '/billing/events/csv']) {
          const res = await get(`${path}?${q}`);
          expect(res.statusCode, `${path}?${q}`).toBe(400);
          expect(res.json().message, `${path}?${q}`).toContain(message);
        }
      }
      expect((await get('/billing/customers?interval=year')).statusCode).toBe(400);
    });

    it('streams the events CSV and the summary CSV, parsed back matching the items, formulas escaped', async () => {
      const res = await get('/billing/events/csv?start=2025-03-01&end=2025-04-30');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toBe('attachment; filename="gridcredits-events-2025-03-01-to-2025-04-30.csv"');
      expect(res.body).toContain('\r\n');
      const rows = parse(res.body, { columns: true }) as Record<string, string>[];
      const items = (await get('/billing/items?start=2025-03-01&end=2025-04-30&limit=100')).json().data.items as Record<string, unknown>[];
      const sorted = [...rows].sort((a, b) => (a.day + a.nmi).localeCompare(b.day + b.nmi));
      expect(
        sorted.map((r) => [r.nmi, r.day, Number(r.ts), Number(r.cost), Number(r.amount), r.type.startsWith("'=") ? r.type.slice(1) : r.type, r.event]),
      ).toEqual(items.map((i) => [i.nmi, i.day, i.ts, i.cost, i.amount, i.type, i.event]));
      // The formula starts with a quote: a spreadsheet shows it as text.
      expect(rows.find((r) => r.nmi === '4102000003')?.type).toBe('\'=HYPERLINK("http://x","a, \\"b\\"")');
      expect(Object.keys(rows[0])).toEqual(['nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost', 'event', 'spot_value', 'feed_in_deduction']);
      expect(rows.every((r) => /^(Dispatch|RERT dispatch|Curtailment) \d+$/.test(r.event))).toBe(true);

      const summary = await get('/billing/month/csv?start=2025-03-01&end=2025-03-31');
      expect(summary.statusCode).toBe(200);
      expect(parse(summary.body, { columns: true })).toEqual([
        { nmi: '4102000001', events: '2', amount: '2.5', cost: '3.73' },
        { nmi: '4102000002', events: '1', amount: '1.25', cost: '0.77' },
        { nmi: '4102000003', events: '1', amount: '1.25', cost: '-0.15' },
      ]);
    });

    it('sends the events CSV compressed in its streaming worker as the server would: Brotli for a browser, gzip for a script, the same file', async () => {
      const url = '/billing/events/csv?start=2025-03-01&end=2025-04-30';
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const cases = [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ] as const;
      for (const [accept, encoding, decompress] of cases) {
        const res = await get(url, { ...admin, 'accept-encoding': accept });
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(res.headers.vary, accept).toContain('accept-encoding');
        expect(decompress(res.rawPayload).equals(plain.rawPayload), accept).toBe(true);
      }
    });

    it('opens a download with a single-use token bound to the user, organisation and exact query, expiring in 60 s', async () => {
      const path = '/billing/events/csv?start=2025-03-01&end=2025-03-31';
      const issue = (p: string, as = admin) => h().app.inject({ method: 'POST', url: '/billing/download-token', headers: as, payload: { path: p } });
      const res = await issue(path);
      expect(res.statusCode, res.body).toBe(200);
      const { token, url, expiresAt } = res.json().data;
      expect(expiresAt - nowS()).toBeLessThanOrEqual(60);
      expect(url).toBe(`/billing/events/csv?end=2025-03-31&start=2025-03-01&token=${encodeURIComponent(token)}`);
      // Only its hash is stored.
      const stored = await h().ctx.db.selectFrom('download_tokens').selectAll().execute();
      expect(stored.some((r) => r.token_hash === token || r.path.includes(token))).toBe(false);
      // Another query (a wider range) is refused, and does not spend the token.
      const wider = await get(`/billing/events/csv?start=2025-03-01&end=2025-04-30&token=${encodeURIComponent(token)}`, {});
      expect(wider.statusCode).toBe(401);
      expect(wider.json().message).toBe(BILLING_MESSAGES.downloadLinkInvalid);
      const first = await get(`${path}&token=${encodeURIComponent(token)}`, {});
      expect(first.statusCode, first.body).toBe(200);
      expect(parse(first.body, { columns: true })).toHaveLength(4);
      // Used once: refused after.
      expect((await get(`${path}&token=${encodeURIComponent(token)}`, {})).statusCode).toBe(401);
      // No token, a made-up one: 401.
      expect((await get(path, {})).statusCode).toBe(401);
      expect((await get(`${path}&token=made-up`, {})).statusCode).toBe(401);
      // Expired: a token past its 60 s.
      const late = (await issue(path)).json().data;
      await h()
        .ctx.db.updateTable('download_tokens')
        .set({ expires_at: nowS() - 1 })
        .where('used_at', 'is', null)
        .execute();
      expect((await get(late.url, {})).statusCode).toBe(401);
      // Not for the session's other routes: a token on a JSON route is no credential.
      const json = (await issue(path)).json().data;
      expect((await get(`/billing/items?start=2025-03-01&end=2025-03-31&token=${encodeURIComponent(json.token)}`, {})).statusCode).toBe(401);
      // Only downloads, and only the caller's: paths of other kinds are refused; a user without the permission gets 403.
      expect((await issue('/billing/items?start=2025-03-01&end=2025-03-31')).statusCode).toBe(400);
      expect((await issue('https://evil.example/x.csv')).statusCode).toBe(400);
      expect((await issue(path, nobody)).statusCode).toBe(403);
      // Bound to the organisation's data: another organisation's token opens its own items only.
      const theirs = (await issue(path, outsider)).json().data;
      const theirCsv = await get(theirs.url, {});
      expect((parse(theirCsv.body, { columns: true }) as { nmi: string }[]).map((r) => r.nmi)).toEqual(['4102000009']);
    });

    it('issues each month’s tax invoice once, lists it, renders its PDF and lets an administrator mark it paid', async () => {
      const t = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
      // Two dispatches run in February 2025 (one cancelled before its start is not run).
      await event(org, t('2025-02-05'));
      await event(org, t('2025-02-20'));
      const cancelled = await event(org, t('2025-02-21'));
      await h()
        .ctx.db.updateTable('events')
        .set({ cancelled_at: t('2025-02-20') })
        .where('id', '=', cancelled)
        .execute();
      const id = await issueInvoice(h().ctx, org, '2025-02', t('2025-03-01'));
      expect(id).not.toBeNull();
      expect(await issueInvoice(h().ctx, org, '2025-02')).toBe(id);
      const otherId = (await issueInvoice(h().ctx, other, '2025-02')) as number;
      // The monthly job queues the last month's invoice of each organisation once.
      expect(await queueDueInvoices(h().ctx, t('2025-03-02'))).toBe(0);

      const list = (await get('/billing/invoices')).json().data.invoices;
      expect(list).toHaveLength(1);
      const inv = list[0];
      // No nodes; 2 dispatches × $15.00 = $30.00, GST $3.00, total $33.00.
      expect(inv).toEqual({
        id,
        number: `INV-202502-${String(org).padStart(4, '0')}`,
        date: '2025-03-01',
        period: '2025-02',
        total: 33,
        gst: 3,
        paid: false,
        downloadURL: `/invoices/${id}/tax-invoice-INV-202502-${String(org).padStart(4, '0')}.pdf`,
      });
      const lines = await h().ctx.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute();
      expect(lines.map((l) => [l.description, l.quantity, Number(l.unit_cents), Number(l.amount_cents)])).toEqual([
        ['Nodes under management, February 2025', 0, 250, 0],
        ['Dispatches run, February 2025', 2, 1500, 3000],
      ]);

      const pdf = await get(inv.downloadURL);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${inv.downloadURL.split('/').pop()}"`);
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
      for (const s of ['Tax invoice', '51 824 753 556', 'GST (10%)', '$3.00', '$33.00', 'Sunrise Energy', inv.number, 'VPP Console Pty Ltd'])
        expect(text).toContain(s);

      // With a download token instead of the session.
      const tok = (await h().app.inject({ method: 'POST', url: '/billing/download-token', headers: viewer, payload: { path: inv.downloadURL } })).json().data;
      expect((await get(tok.url, {})).statusCode).toBe(200);
      expect((await get(tok.url, {})).statusCode).toBe(401);

      // Another organisation's invoice is 404, as is a wrong file name; a user without the permission 403.
      expect((await get(`/invoices/${otherId}/tax-invoice-INV-202502-${String(other).padStart(4, '0')}.pdf`)).statusCode).toBe(404);
      expect((await get(`/invoices/${id}/other.pdf`)).statusCode).toBe(404);
      expect((await get(inv.downloadURL, nobody)).statusCode).toBe(403);
      expect((await get('/billing/invoices', nobody)).statusCode).toBe(403);

      // Paid: the platform's billing administrators only; the invoiced organisation's administrator gets 403 (issue 33 item 6).
      const pay = (as: Record<string, string>, invoice = id, paid = true) =>
        h().app.inject({ method: 'PUT', url: `/billing/invoices/${invoice}/paid`, headers: as, payload: { paid } });
      expect((await pay(viewer)).statusCode).toBe(403);
      const refused = await pay(admin);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data.message).toBe(BILLING_MESSAGES.markPaidOperatorOnly);
      // Another organisation's administrator: 404, as for any of that organisation's records.
      expect((await pay(otherAdmin)).statusCode).toBe(404);
      expect((await get('/billing/invoices')).json().data.canMarkPaid).toBe(false);
      expect((await get('/billing/invoices', platform)).json().data.canMarkPaid).toBe(true);
      expect((await pay(platform, 999_999)).statusCode).toBe(404);
      const paid = await pay(platform);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().data.paid).toBe(true);
      expect((await get('/billing/invoices')).json().data.invoices[0].paid).toBe(true);
      expect((await pay(platform, id as number, false)).json().data.paid).toBe(false);
      // The lines never change.
      expect(await h().ctx.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute()).toEqual(lines);
    });

    it('counts the month’s nodes under management from the membership history and the month’s events that ran (issue 33 item 6)', async () => {
      const t = (d: string) => Date.parse(`${d}T00:00:00+11:00`) / 1000;
      const o = await h().org('RETAILER', 'Membership Energy');
      // March 2025 in Sydney (the invoice's zone): [1 March 00:00 +11:00, 1 April 00:00 +11:00).
      const home = (joinedAt: string, commissionedAt: string | null, leftAt?: string) =>
        node(h(), [o], {
          joinedAt: t(joinedAt),
          ...(leftAt ? { leftAt: t(leftAt) } : {}),
          ...(commissionedAt ? { commissionedAt: t(commissionedAt) } : { commissioned: false }),
        });
      await home('2025-01-10', '2025-01-10'); // A: in the fleet all March: counted
      await home('2025-03-15', '2025-03-15'); // B: joined in March: counted
      await home('2025-01-01', '2025-01-01', '2025-02-28'); // C: left before March: not counted
      await home('2025-01-01', '2025-01-01', '2025-03-10'); // D: left in March: counted
      await home('2025-04-05', '2025-01-01'); // E: joined after March (today's fleet would count it): not counted
      await home('2025-01-01', '2025-04-02'); // F: commissioned after March: not counted
      await home('2025-01-01', null); // G: never commissioned: not counted
      // Events: a dispatch and a RERT dispatch that ran, one cancelled after its start (it ran), one
      // cancelled before its start (it did not), one on 1 April (next month's).
      const ev = (start: string, type: 'DISPATCH' | 'RERT' = 'DISPATCH', cancelledAt: number | null = null) =>
        h()
          .ctx.db.insertInto('events')
          .values({
            organisation_id: o,
            powerstation_id: null,
            type,
            start_time: t(start),
            duration: 1800,
            cancelled_at: cancelledAt,
            created_at: t(start) - 7200,
          })
          .execute();
      await ev('2025-03-01');
      await ev('2025-03-12', 'RERT');
      await ev('2025-03-20', 'DISPATCH', t('2025-03-20') + 600);
      await ev('2025-03-25', 'DISPATCH', t('2025-03-25') - 600);
      await ev('2025-04-01');
      const id = (await issueInvoice(h().ctx, o, '2025-03', t('2025-04-01'))) as number;
      const lines = await h().ctx.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute();
      // A, B and D: 3 × $2.50 = $7.50; 3 events × $15.00 = $45.00; subtotal $52.50, GST $5.25, total $57.75.
      expect(lines.map((l) => [l.description, l.quantity, Number(l.unit_cents), Number(l.amount_cents)])).toEqual([
        ['Nodes under management, March 2025', 3, 250, 750],
        ['Dispatches run, March 2025', 3, 1500, 4500],
      ]);
      const inv = await h().ctx.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect([Number(inv.subtotal_cents), Number(inv.gst_cents), Number(inv.total_cents)]).toEqual([5250, 525, 5775]);
    });

    it('queues last month’s invoice of each organisation that existed then, once; the job issues it', async () => {
      const t = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
      const { db } = h().ctx;
      // Both organisations existed in March 2025 (the others of this database were created since).
      await db
        .updateTable('organisations')
        .set({ created_at: t('2025-01-01') })
        .where('id', 'in', [org, other])
        .execute();
      const aprilSecond = t('2025-04-02');
      expect(await queueDueInvoices(h().ctx, aprilSecond)).toBe(2);
      expect(await queueDueInvoices(h().ctx, aprilSecond)).toBe(0);
      expect(await runJobs(h().ctx, [issueInvoiceJob])).toBe(2);
      const march = (await get('/billing/invoices')).json().data.invoices.filter((i: { period: string }) => i.period === '2025-03');
      expect(march).toHaveLength(1);
      expect(march[0].number).toBe(`INV-202503-${String(org).padStart(4, '0')}`);
      // Issued: the next day's check queues nothing for March.
      expect(await queueDueInvoices(h().ctx, aprilSecond + 86_400)).toBe(0);
      expect(await db.selectFrom('invoices').select('id').where('period', '=', '2025-03').where('organisation_id', 'in', [org, other]).execute()).toHaveLength(
        2,
      );
    });
  },
  { BILLING_OPERATOR_ORGANISATION: 'Platform Operator' },
);
