// `npm run bench:soak -- --minutes 10`: the real server (demo mode, the live simulated fleet) on a
// scratch data directory, under a steady load of a few clients on loopback calling the main read
// endpoints. Samples the server's memory (after a full collection) at the start, every minute and
// at the end, and reports latencies per endpoint. Prints tables and writes bench/soak-results.json.
// PostgreSQL: set BENCH_DATABASE_URL (a fresh schema is used and dropped).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { ALL_FLEET_NODES, DEMO_PASSWORD, loginReply, nodeListReply, startOfPeriod } from '@vpp/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import pg from 'pg';
import { startServerProcess } from '../packages/server/src/test/start-server.ts';
import { waitFor } from '../packages/server/src/test/wait.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '300' },
    days: { type: 'string', default: '2' },
    interval: { type: 'string', default: '30' },
    'pause-ms': { type: 'string', default: '50' },
  },
});
const MINUTES = Number(values.minutes);
const CLIENTS = Number(values.clients);
const NODES = Number(values.nodes);
const PAUSE_MS = Number(values['pause-ms']);
for (const [name, v] of Object.entries({ minutes: MINUTES, clients: CLIENTS, nodes: NODES, 'pause-ms': PAUSE_MS })) {
  if (!Number.isFinite(v) || v < 0 || (name !== 'pause-ms' && v <= 0)) throw new Error(`--${name} must be a positive number`);
}
const pgUrl = process.env.BENCH_DATABASE_URL;
const schema = `soak_${randomBytes(4).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-soak-'));

const log = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const r1 = (x: number) => Math.round(x * 10) / 10;
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN);

const durationS = MINUTES * 60;
log(`Starting the server (${pgUrl ? 'postgres' : 'sqlite'}, ${NODES} nodes, ${values.days} days of history)…`);
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
    SIM_HISTORY_DAYS: values.days,
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
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgUrl) {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  }
}

/** Where the fleet stands: how many nodes have been simulated, and up to when (the least of them). */
async function simulated(): Promise<{ n: number; ts: number }> {
  const text = 'select count(*) as n, min(ts) as ts from sim_state';
  if (!pgUrl) {
    const db = new DatabaseSync(path.join(dataDir, 'console.db'));
    try {
      const row = db.prepare(text).get() as { n: number; ts: number | null };
      return { n: Number(row.n), ts: Number(row.ts ?? 0) };
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    const row = (await c.query(text)).rows[0] as { n: string; ts: string | null };
    return { n: Number(row.n), ts: Number(row.ts ?? 0) };
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
      return s !== null && s.n >= NODES && s.ts >= Date.now() / 1000 - 600;
    },
    30 * 60_000,
  );
  log(`  fleet live after ${r1((Date.now() - t0) / 1000)} s`);

  const challenge = (await (await fetch(`${base}/auth/captcha/challenge`)).json()) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  const login = await fetch(`${base}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'retailer',
      password: DEMO_PASSWORD,
      captchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
    }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const headers = { authorization: `Bearer ${loginReply.parse(await login.json()).access_token}` };
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
} finally {
  await cleanUp();
}
