// Billing figures (issue 15): the events CSV of a month of a 50,000-customer fleet with daily events
// (1.5 M line items, seeded directly in the database), streamed over HTTP, in lines per second and
// with the process's memory growth; and the time to render an invoice's PDF.
import { execFile, spawn } from 'node:child_process';
import { epochToLocalDate } from '@vpp/shared/time';
import { sql } from 'kysely';
import { issueInvoice } from '../packages/server/src/features/billing/index.ts';
import type { AppContext } from '../packages/server/src/platform/context.ts';
import { streamWorkersCpuS } from '../packages/server/src/platform/run-in-worker.ts';
import { benchOrganisation } from './setup.ts';
import { signIn } from './sign-in.ts';

const log = (s: string) => process.stderr.write(`${s}\n`);

/** What Chromium asks for: the server answers in Brotli. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** A download timed by a child process (fetch, asking for what a browser accepts), with the lines it held. */
const CLIENT = `
const t = performance.now();
fetch(process.env.URL, { headers: { ...JSON.parse(process.env.HEADERS), 'accept-encoding': process.env.ENC } }).then(async (res) => {
  let newlines = 0;
  for await (const c of res.body) {
    const b = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) newlines++;
  }
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ status: res.status, newlines, seconds: (performance.now() - t) / 1000, cpuS: (cpu.user + cpu.system) / 1e6 }));
});`;

function downloadElsewhere(url: string, headers: Record<string, string>): Promise<{ status: number; newlines: number; seconds: number; cpuS: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', CLIENT],
      { env: { ...process.env, URL: url, HEADERS: JSON.stringify(headers), ENC: process.env.BENCH_ACCEPT_ENCODING ?? BROWSER_ENCODINGS } },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))),
    );
  });
}

/** Another user's calls, timed by a process of its own until its input closes: the VPP list, every 25 ms; prints the times. */
const PROBE = `
const times = [];
let running = true;
process.stdin.on('end', () => { running = false; }).resume();
(async () => {
  while (running) {
    const t = performance.now();
    const r = await fetch(process.env.URL, { headers: JSON.parse(process.env.HEADERS) });
    await r.arrayBuffer();
    if (r.ok) times.push(performance.now() - t);
    await new Promise((w) => setTimeout(w, 25));
  }
  process.stdout.write(JSON.stringify(times));
})();`;

function probeElsewhere(url: string, headers: Record<string, string>): { stop(): Promise<number[]> } {
  const child = spawn(process.execPath, ['-e', PROBE], {
    env: { ...process.env, URL: url, HEADERS: JSON.stringify(headers) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await ended;
      return JSON.parse(out) as number[];
    },
  };
}

/**
 * Seeds the line items in an organisation of their own ('Bench Billing', user `bench-billing`) and
 * times its CSV and an invoice: the CSV then holds exactly the seeded lines, whatever else the bench
 * settled before (the dispatch part's real credits are the other organisation's). Answers the
 * organisation and the figures.
 */
export async function benchBilling(ctx: AppContext, base: string, customers = 50_000, days = 30) {
  const db = ctx.db;
  const org = await benchOrganisation(db, 'Bench Billing', 'bench-billing');
  const { headers } = await signIn(base, 'bench-billing');
  // Another organisation's user (the bench's own 'bench'), whose calls are timed while the file streams.
  const other = await signIn(base, 'bench');
  const now = Math.floor(Date.now() / 1000);
  // The last `days` days before today (Sydney), one event a day, every customer credited each day.
  const dayList = Array.from({ length: days }, (_, k) => epochToLocalDate(now - (days - k) * 86400, 'Australia/Sydney'));
  log(`Seeding ${customers * days} grid-credit line items…`);
  const t = performance.now();
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

  // The events CSV of the month, read as a stream: lines counted, the process's RSS sampled
  // throughout; made on the API's thread and then in the streaming workers (CSV_IN_WORKER), back to back.
  const url = `/billing/events/csv?start=${dayList[0]}&end=${dayList[days - 1]}`;
  const timedCsv = async (inWorker: boolean) => {
    ctx.config.CSV_IN_WORKER = inWorker;
    // A first read warms the database's page cache (SQLite keeps up to 256 MiB of pages) and starts the
    // streaming worker: the timed read's RSS growth is then the stream's own.
    await (await fetch(`${base}${url}`, { headers })).arrayBuffer();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    // The client runs in its own process, as a browser would: here it would take the server's thread.
    const cpu = process.cpuUsage();
    const apiCpu = process.threadCpuUsage();
    const workersCpuS = await streamWorkersCpuS();
    const probe = probeElsewhere(`${base}/v2/powerstations?limit=10&offset=0`, other.headers);
    const got = await downloadElsewhere(`${base}${url}`, headers);
    const apiMs = (await probe.stop()).sort((a, b) => a - b);
    const serverCpu = process.cpuUsage(cpu);
    const apiUsed = process.threadCpuUsage(apiCpu);
    const workersS = (await streamWorkersCpuS()) - workersCpuS;
    clearInterval(sampler);
    if (got.status !== 200) throw new Error(`${url}: ${got.status}`);
    const lines = got.newlines - 1; // less the header row
    if (lines !== customers * days) throw new Error(`The events CSV held ${lines} lines, not ${customers * days}.`);
    const growth = Math.round((rssPeak - rssBefore) / 2 ** 20);
    const apiP50Ms = Math.round((apiMs[apiMs.length >> 1] ?? 0) * 10) / 10;
    log(
      `  events CSV ${inWorker ? 'in the workers' : "on the API's thread"}: ${lines} lines in ${Math.round(got.seconds * 10) / 10} s, RSS +${growth} MiB, another user's VPP list p50 ${apiP50Ms} ms (${apiMs.length} calls)`,
    );
    // CPU seconds the download took in all (this process's threads, compression included, and the
    // client's): what two idle cores could at best do is the lines over half of them.
    const serverS = (serverCpu.user + serverCpu.system) / 1e6;
    const cpuS = serverS + got.cpuS;
    // Nanoseconds of CPU per line: the API's thread, the streaming worker, the rest of the server's
    // threads (libuv's pool, where the compression runs, and V8's helpers), and the client (its
    // decompressing and counting).
    const apiS = (apiUsed.user + apiUsed.system) / 1e6;
    const ns = (s: number) => Math.round((s / lines) * 1e9);
    log(
      `    CPU per line: ${ns(cpuS)} ns (API's thread ${ns(apiS)}, workers ${ns(workersS)}, other server threads ${ns(serverS - apiS - workersS)}, client ${ns(got.cpuS)})`,
    );
    return {
      lines,
      linesPerS: Math.round(lines / got.seconds),
      growth,
      apiP50Ms,
      linesPerCpuS: Math.round(lines / cpuS),
      cpuNs: { api: ns(apiS), worker: ns(workersS), other: ns(serverS - apiS - workersS), client: ns(got.cpuS) },
    };
  };
  const inThread = await timedCsv(false);
  const inWorker = await timedCsv(true);
  const lines = inWorker.lines;

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
    org,
    figures: {
      billingCsvLines: lines,
      billingEventsCsvLinesPerS: inWorker.linesPerS,
      billingEventsCsvInThreadLinesPerS: inThread.linesPerS,
      billingEventsCsvLinesPerCpuS: inWorker.linesPerCpuS,
      billingEventsCsvInThreadLinesPerCpuS: inThread.linesPerCpuS,
      billingEventsCsvRssGrowthMiB: inWorker.growth,
      // Another organisation's user's VPP list meanwhile (from a process of its own), p50.
      billingEventsCsvApiP50Ms: inWorker.apiP50Ms,
      billingEventsCsvInThreadApiP50Ms: inThread.apiP50Ms,
      // CPU nanoseconds per line in the worker's download: the API's thread, the worker, the server's other threads, the client.
      billingEventsCsvCpuNsApi: inWorker.cpuNs.api,
      billingEventsCsvCpuNsWorker: inWorker.cpuNs.worker,
      billingEventsCsvCpuNsOther: inWorker.cpuNs.other,
      billingEventsCsvCpuNsClient: inWorker.cpuNs.client,
      invoicePdfMs: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
    },
  };
}
