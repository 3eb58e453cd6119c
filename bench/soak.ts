// `npm run bench:soak -- --minutes 10`: the real server (demo mode, the live simulated fleet) on a
// scratch data directory, under a steady load of a few clients on loopback calling the main read
// endpoints. Samples the server's memory (after a full collection) at the start, every minute and
// at the end, and reports latencies per endpoint. Prints tables and writes bench/soak-results.json.
// PostgreSQL: set BENCH_DATABASE_URL (a fresh schema is used and dropped).
//
// `npm run bench:soak -- --heavy` (issue 32 item 5): the fair share of heavy reads instead. One user
// (retailer) keeps ten of the heaviest reads in flight (its largest VPP's 31-day 5-minute series,
// every metric) while /healthz and another user's (operator's) VPP list are timed one request after
// another; the same probes are timed first with nothing else running. `--days` defaults to 31 there,
// `--seconds` (60) is how long each phase lasts. Writes bench/soak-heavy-results.json.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { loginReply } from '@vpp/shared/auth/schemas';
import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import { nodeListReply, seriesReply } from '@vpp/shared/nodes/schemas';
import { startOfPeriod } from '@vpp/shared/time';
import { powerstationListReply, VPP_SERIES_METRICS } from '@vpp/shared/vpps/schemas';
import pg from 'pg';
import { postLogin } from '../packages/server/src/test/sign-in.ts';
import { startServerProcess } from '../packages/server/src/test/start-server.ts';
import { waitFor } from '../packages/server/src/test/wait.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '300' },
    days: { type: 'string' },
    interval: { type: 'string', default: '30' },
    'pause-ms': { type: 'string', default: '50' },
    heavy: { type: 'boolean', default: false },
    keep: { type: 'string' },
    seconds: { type: 'string', default: '60' },
  },
});
const MINUTES = Number(values.minutes);
const CLIENTS = Number(values.clients);
const NODES = Number(values.nodes);
const PAUSE_MS = Number(values['pause-ms']);
const HEAVY = values.heavy === true;
const DAYS = values.days ?? (HEAVY ? '31' : '2');
const SECONDS = Number(values.seconds);
for (const [name, v] of Object.entries({ minutes: MINUTES, clients: CLIENTS, nodes: NODES, 'pause-ms': PAUSE_MS, days: Number(DAYS), seconds: SECONDS })) {
  if (!Number.isFinite(v) || v < 0 || (name !== 'pause-ms' && v <= 0)) throw new Error(`--${name} must be a positive number`);
}
const pgUrl = process.env.BENCH_DATABASE_URL;
// `--keep NAME`: the fleet is kept (data directory vpp-soak-NAME in the temporary directory, schema
// soak_NAME) for the next run with the same name, which starts on it instead of building a new one.
const KEEP = values.keep;
if (KEEP !== undefined && !/^\w+$/.test(KEEP)) throw new Error('--keep must be letters, digits or _');
const schema = `soak_${KEEP ?? randomBytes(4).toString('hex')}`;
const dataDir = KEEP ? path.join(os.tmpdir(), `vpp-soak-${KEEP}`) : fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-soak-'));
fs.mkdirSync(dataDir, { recursive: true });

const log = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const r1 = (x: number) => Math.round(x * 10) / 10;
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN);

const durationS = MINUTES * 60;
log(`Starting the server (${pgUrl ? 'postgres' : 'sqlite'}, ${NODES} nodes, ${DAYS} days of history)…`);
const server = await startServerProcess({
  name: 'soak',
  dataDir,
  nodeArgs: ['--expose-gc', '--import', path.join(import.meta.dirname, 'soak-probe.ts')],
  ipc: true,
  env: {
    CAPTCHA_COST: '500',
    DATABASE_URL: pgUrl ?? '',
    DATABASE_SCHEMA: pgUrl ? schema : '',
    SIM_NODES: String(NODES),
    SIM_HISTORY_DAYS: DAYS,
    SIM_INTERVAL_S: values.interval,
    // One sign-in lasts the whole soak.
    ACCESS_TOKEN_TTL_S: String(durationS + 3600),
  },
});
const { child, url: base } = server;

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}
async function memory(): Promise<Memory> {
  const answer = new Promise<Memory>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not report its memory in 30 s')), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as Memory);
    });
  });
  child.send('memory');
  return answer;
}

async function cleanUp() {
  await server.end();
  if (KEEP) return;
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgUrl) {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  }
}

/**
 * Where the fleet stands: how many nodes have been simulated, and up to when (the least of them);
 * and how many 5-minute rows older than two days are still to be compacted (the start compacts
 * its backfill once written).
 */
async function simulated(): Promise<{ n: number; ts: number; loose: number }> {
  const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86400;
  const text = `select count(*) as n, min(ts) as ts, (select count(*) from tel_5m where ts < ${twoDaysAgo}) as loose from sim_state`;
  if (!pgUrl) {
    const db = new DatabaseSync(path.join(dataDir, 'console.db'));
    try {
      const row = db.prepare(text).get() as { n: number; ts: number | null; loose: number };
      return { n: Number(row.n), ts: Number(row.ts ?? 0), loose: Number(row.loose) };
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    const row = (await c.query(text)).rows[0] as { n: string; ts: string | null; loose: string };
    return { n: Number(row.n), ts: Number(row.ts ?? 0), loose: Number(row.loose) };
  } finally {
    await c.end();
  }
}

try {
  const t0 = Date.now();
  // The fleet is live once every node has been simulated to within a few minutes of now.
  await waitFor(
    'the fleet history',
    async () => {
      const s = await simulated().catch(() => null);
      // The heavy reads read the history as a running server keeps it: closed days compacted.
      return s !== null && s.n >= NODES && s.ts >= Date.now() / 1000 - 600 && (!HEAVY || s.loose === 0);
    },
    30 * 60_000,
  );
  log(`  fleet live after ${r1((Date.now() - t0) / 1000)} s`);

  const headers = await signIn('retailer');
  if (HEAVY) await heavyReads(headers, await signIn('operator'));
  else await steadyLoad(headers);
} finally {
  await cleanUp();
}

/** A bearer header for a demo user, signed in as the login screen does (its captcha solved). */
async function signIn(username: string): Promise<{ authorization: string }> {
  const login = await postLogin(base, username);
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  return { authorization: `Bearer ${loginReply.parse(await login.json()).access_token}` };
}

/** The steady load of a few clients on the main read endpoints, with the server's memory sampled. */
async function steadyLoad(headers: { authorization: string }) {
  const list = nodeListReply.parse(await (await fetch(`${base}/v2/nodes?limit=100&offset=0`, { headers })).json());
  const ids = list.deployments.map((d) => d.id);
  if (!ids.length) throw new Error('The fleet has no nodes to ask about.');

  const zone = 'Australia/Sydney';
  const now = Math.floor(Date.now() / 1000);
  const day = startOfPeriod(now, 'day', zone);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];
  const terms = ['', 'sungrow', 'newtown', 'byd', '2000', 'residence'];
  // The screens an operator keeps open: the fleet list, a node's day graph, the VPP list, the fleet's day graph.
  const endpoints: Record<string, () => string> = {
    'node list': () => `/v2/nodes?f=${pick(terms)}&limit=10&offset=0`,
    'node series (day, 5 min)': () =>
      `/api/nodes/${pick(ids)}/data?metrics=meterPower,solarPower,batteryPower,housePower,soc&start=${day}&end=${day + 86400}&interval=300&fill=null`,
    'VPP list': () => '/v2/powerstations?limit=20&offset=0',
    'fleet series (day, 5 min)': () => `/api/data?id=${ALL_FLEET_NODES}&metrics=solarPower,meterPower,remainingCharge&interval=300&start=${day}`,
  };
  const names = Object.keys(endpoints);
  const latencies = new Map(names.map((n) => [n, [] as number[]]));
  const errors = new Map(names.map((n) => [n, 0]));
  const failures: string[] = [];

  async function call(name: string): Promise<void> {
    const url = endpoints[name]();
    const s = performance.now();
    try {
      const res = await fetch(`${base}${url}`, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${res.status}`);
      latencies.get(name)?.push(performance.now() - s);
    } catch (err) {
      errors.set(name, (errors.get(name) ?? 0) + 1);
      if (failures.length < 10) failures.push(`${url}: ${(err as Error).message}`);
    }
  }

  // Warm-up: every endpoint a few times, so that the first memory sample is the server at work, not
  // the server before its first request; warm-up calls are not counted.
  for (let i = 0; i < 5; i++) for (const n of names) await call(n);
  for (const n of names) {
    latencies.set(n, []);
    errors.set(n, 0);
  }
  failures.length = 0;

  const samples: { minute: number; rssMB: number; heapUsedMB: number; heapTotalMB: number; externalMB: number }[] = [];
  const sample = async (minute: number) => {
    const m = await memory();
    samples.push({ minute, rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), heapTotalMB: mb(m.heapTotal), externalMB: mb(m.external) });
  };
  await sample(0);
  log(`Load: ${CLIENTS} clients for ${MINUTES} min…`);
  const start = Date.now();
  const end = start + durationS * 1000;
  // Bounded in time and in count: a client stops at the end, or after the most requests it could make.
  const maxPerClient = Math.ceil((durationS * 1000) / Math.max(1, PAUSE_MS)) + 1;
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    for (let i = 0; i < maxPerClient && Date.now() < end; i++) {
      await call(names[(i + c) % names.length]);
      if (PAUSE_MS) await sleep(PAUSE_MS);
    }
  });
  const sampler = (async () => {
    for (let minute = 1; minute < MINUTES; minute++) {
      await sleep(Math.max(0, start + minute * 60_000 - Date.now()));
      await sample(minute);
      log(`  minute ${minute}: rss ${samples.at(-1)?.rssMB} MB, heap ${samples.at(-1)?.heapUsedMB} MB`);
    }
  })();
  await Promise.all([...clients, sampler]);
  const seconds = (Date.now() - start) / 1000;
  await sample(MINUTES);

  const first = samples[0];
  const last = samples[samples.length - 1];
  const perEndpoint = names.map((name) => {
    const xs = [...(latencies.get(name) ?? [])].sort((a, b) => a - b);
    return {
      endpoint: name,
      requests: xs.length + (errors.get(name) ?? 0),
      errors: errors.get(name) ?? 0,
      p50Ms: r1(quantile(xs, 0.5)),
      p95Ms: r1(quantile(xs, 0.95)),
      p99Ms: r1(quantile(xs, 0.99)),
      maxMs: r1(xs.at(-1) ?? Number.NaN),
    };
  });
  const requests = perEndpoint.reduce((a, e) => a + e.requests, 0);
  const results = {
    database: pgUrl ? 'postgres' : 'sqlite',
    minutes: MINUTES,
    clients: CLIENTS,
    nodes: NODES,
    requests,
    requestsPerSecond: r1(requests / seconds),
    errors: perEndpoint.reduce((a, e) => a + e.errors, 0),
    memory: { startRssMB: first.rssMB, endRssMB: last.rssMB, startHeapUsedMB: first.heapUsedMB, endHeapUsedMB: last.heapUsedMB },
    samples,
    endpoints: perEndpoint,
    failures,
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    at: new Date().toISOString(),
  };
  // biome-ignore lint/suspicious/noConsole: the soak prints its figures as tables
  console.table(samples);
  // biome-ignore lint/suspicious/noConsole: the soak prints its figures as tables
  console.table(perEndpoint);
  // biome-ignore lint/suspicious/noConsole: the soak prints its figures as tables
  console.table([
    { figure: 'server RSS, start → end (MB)', value: `${first.rssMB} → ${last.rssMB}` },
    { figure: 'server heap used after GC, start → end (MB)', value: `${first.heapUsedMB} → ${last.heapUsedMB}` },
    { figure: 'requests', value: requests },
    { figure: 'requests per second', value: results.requestsPerSecond },
    { figure: 'errors', value: results.errors },
  ]);
  for (const f of failures) log(`  failed: ${f}`);
  fs.writeFileSync(path.join(import.meta.dirname, 'soak-results.json'), `${JSON.stringify(results, null, 2)}\n`);
}

interface Timings {
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}
function timings(xs: number[], errors: number): Timings {
  const s = [...xs].sort((a, b) => a - b);
  return { requests: xs.length + errors, errors, p50Ms: r1(quantile(s, 0.5)), p99Ms: r1(quantile(s, 0.99)), maxMs: r1(s.at(-1) ?? Number.NaN) };
}

/**
 * Issue 32 item 5: /healthz and another user's VPP list, each timed one request after another for
 * SECONDS, first alone, then while one user keeps ten of the heaviest reads in flight.
 */
async function heavyReads(heavyUser: { authorization: string }, otherUser: { authorization: string }) {
  const vpps = powerstationListReply.parse(await (await fetch(`${base}/v2/powerstations?limit=100&offset=0`, { headers: heavyUser })).json()).result;
  const vpp = [...vpps].sort((a, b) => b.nodes - a.nodes)[0];
  if (!vpp) throw new Error('The heavy user has no VPP.');
  const now = Math.floor(Date.now() / 1000);
  const end = now - (now % 300);
  const heavyUrl = `/api/powerstations/${vpp.id}/data?metrics=${VPP_SERIES_METRICS.join(',')}&interval=300&start=${end - 31 * 86400}&end=${end}`;
  log(`Heavy read: ${vpp.name} (${vpp.nodes} nodes), 31 days at 5 minutes`);

  /** Calls `url` one request after another until `until`; answers its latencies and failures. */
  const probe = async (url: string, headers: Record<string, string>, until: number) => {
    const xs: number[] = [];
    let errors = 0;
    while (Date.now() < until) {
      const s = performance.now();
      const res = await fetch(`${base}${url}`, { headers });
      await res.arrayBuffer();
      if (res.ok) xs.push(performance.now() - s);
      else errors++;
    }
    return timings(xs, errors);
  };
  const probes = (until: number) => Promise.all([probe('/healthz', {}, until), probe('/v2/powerstations?limit=20&offset=0', otherUser, until)]);

  // Warm-up: the heavy read once (its pages in the cache), the probes briefly.
  const first = performance.now();
  const warm = await fetch(`${base}${heavyUrl}`, { headers: heavyUser });
  const points = Object.keys(seriesReply.parse(await warm.json()).series).length;
  const aloneMs = performance.now() - first;
  log(`  one heavy read alone: ${r1(aloneMs)} ms`);
  await probes(Date.now() + 2000);

  log(`Probes alone for ${SECONDS} s…`);
  const [healthIdle, listIdle] = await probes(Date.now() + SECONDS * 1000);

  log(`Probes beside ten heavy reads in flight for ${SECONDS} s…`);
  const until = Date.now() + SECONDS * 1000;
  const heavy: number[] = [];
  let refused = 0;
  let heavyErrors = 0;
  const load = os.loadavg()[0];
  const heavyClients = Array.from({ length: 10 }, async () => {
    while (Date.now() < until) {
      const s = performance.now();
      const res = await fetch(`${base}${heavyUrl}`, { headers: heavyUser });
      await res.arrayBuffer();
      if (res.ok) heavy.push(performance.now() - s);
      else if (res.status === 429) refused++;
      else heavyErrors++;
    }
  });
  const [[healthBusy, listBusy]] = await Promise.all([probes(until), ...heavyClients]);
  const heavyT = timings(heavy, heavyErrors);

  const rows = [
    { figure: '/healthz, alone', ...healthIdle },
    { figure: "another user's VPP list, alone", ...listIdle },
    { figure: '/healthz, beside 10 heavy reads', ...healthBusy },
    { figure: "another user's VPP list, beside 10 heavy reads", ...listBusy },
    { figure: 'the heavy reads (31-day 5-minute VPP series)', ...heavyT },
  ];
  // biome-ignore lint/suspicious/noConsole: the soak prints its figures as tables
  console.table(rows);
  const loadAfter = os.loadavg()[0];
  // biome-ignore lint/suspicious/noConsole: the soak prints its figures as tables
  console.table([
    { figure: 'VPP, nodes', value: `${vpp.name}, ${vpp.nodes}` },
    { figure: 'points in a heavy reply', value: points },
    { figure: 'one heavy read alone (ms)', value: r1(aloneMs) },
    { figure: 'heavy reads refused (429)', value: refused },
    { figure: '/healthz p99 ≤ 100 ms', value: healthBusy.p99Ms <= 100 ? 'met' : 'not met' },
    { figure: "another user's VPP list p99 ≤ 200 ms", value: listBusy.p99Ms <= 200 ? 'met' : 'not met' },
    { figure: 'load average (1 min), start → end of the busy phase', value: `${load.toFixed(2)} → ${loadAfter.toFixed(2)}` },
  ]);
  const results = {
    database: pgUrl ? 'postgres' : 'sqlite',
    nodes: NODES,
    days: Number(DAYS),
    seconds: SECONDS,
    vpp: { name: vpp.name, nodes: vpp.nodes },
    oneHeavyReadAloneMs: r1(aloneMs),
    refused,
    figures: rows,
    loadAverage: { start: load, end: loadAfter },
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    at: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(import.meta.dirname, 'soak-heavy-results.json'), `${JSON.stringify(results, null, 2)}\n`);
}
