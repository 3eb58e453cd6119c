// Billing figures (issue 15): the events CSV of a month of a 50,000-customer fleet with daily events
// (1.5 M line items, seeded directly in the database), streamed over HTTP, in lines per second and
// with the process's memory growth; and the time to render an invoice's PDF.
import { epochToLocalDate } from '@vpp/shared';
import { sql } from 'kysely';
import { issueInvoice } from '../packages/server/src/features/billing/index.ts';
import type { AppContext } from '../packages/server/src/platform/context.ts';

const log = (s: string) => process.stderr.write(`${s}\n`);

export async function benchBilling(ctx: AppContext, base: string, headers: Record<string, string>, org: number, customers = 50_000, days = 30) {
  const db = ctx.db;
  const now = Math.floor(Date.now() / 1000);
  // The last `days` days before today (Sydney), one event a day, every customer credited each day.
  const dayList = Array.from({ length: days }, (_, k) => epochToLocalDate(now - (days - k) * 86400, 'Australia/Sydney'));
  log(`Seeding ${customers * days} grid-credit line items…`);
  let t = performance.now();
  for (const day of dayList) {
    const start = Date.parse(`${day}T07:00:00Z`) / 1000;
    const ev = await db
      .insertInto('events')
      .values({ organisation_id: org, powerstation_id: null, type: 'DISPATCH', start_time: start, duration: 3600, cancelled_at: null, created_at: start })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cols = sql`(organisation_id, event_id, event_kind, nmi, day, ts, type, amount, rate, cost_cents, created_at)`;
    if (ctx.dialect === 'postgres')
      await sql`insert into billing_items ${cols}
        select ${org}, ${ev.id}, 'dispatch', '41' || lpad(i::text, 8, '0'), ${day}, ${start}, 'Spot Price', 1 + (i % 7) * 0.25, 0.3, 30 + (i % 7) * 8, ${now}
        from generate_series(0, ${customers - 1}) as i`.execute(db);
    else
      await sql`insert into billing_items ${cols}
        with recursive n(i) as (select 0 union all select i + 1 from n where i < ${customers - 1})
        select ${org}, ${ev.id}, 'dispatch', '41' || printf('%08d', i), ${day}, ${start}, 'Spot Price', 1 + (i % 7) * 0.25, 0.3, 30 + (i % 7) * 8, ${now} from n`.execute(
        db,
      );
  }
  log(`  in ${Math.round((performance.now() - t) / 100) / 10} s`);

  // The events CSV of the month, read as a stream: lines counted, the process's RSS sampled throughout.
  // A first read warms the database's page cache (SQLite keeps up to 256 MiB of pages): the timed
  // read's RSS growth is then the stream's own.
  const url = `/billing/events/csv?start=${dayList[0]}&end=${dayList[days - 1]}`;
  await (await fetch(`${base}${url}`, { headers })).arrayBuffer();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 20);
  t = performance.now();
  const res = await fetch(`${base}${url}`, { headers });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  let newlines = 0;
  // Counted natively (indexOf): the client shares this process, and a byte loop in JavaScript would take
  // more of its time than the server's writing does.
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) newlines++;
  }
  const csvS = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const lines = newlines - 1; // less the header row
  if (lines !== customers * days) throw new Error(`The events CSV held ${lines} lines, not ${customers * days}.`);
  log(`  events CSV: ${lines} lines in ${Math.round(csvS * 10) / 10} s, RSS +${Math.round((rssPeak - rssBefore) / 2 ** 20)} MiB`);

  // An invoice's PDF: issued once, rendered on each download.
  const period = epochToLocalDate(now - 40 * 86400, 'Australia/Sydney').slice(0, 7);
  const id = await issueInvoice(ctx, org, period);
  const list = (await (await fetch(`${base}/billing/invoices`, { headers })).json()) as { data: { invoices: { id: number; downloadURL: string }[] } };
  const pdfUrl = list.data.invoices.find((i) => i.id === id)?.downloadURL as string;
  const times: number[] = [];
  for (let i = 0; i < 23; i++) {
    const s = performance.now();
    const r = await fetch(`${base}${pdfUrl}`, { headers });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${pdfUrl}: ${r.status}`);
    if (i >= 3) times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return {
    billingCsvLines: lines,
    billingEventsCsvLinesPerS: Math.round(lines / csvS),
    billingEventsCsvRssGrowthMiB: Math.round((rssPeak - rssBefore) / 2 ** 20),
    invoicePdfMs: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
  };
}
