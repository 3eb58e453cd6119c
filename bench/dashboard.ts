// `npm run bench:dashboard -- --nodes 50000`: the dashboard of five widgets painted in Chromium
// (bench/dashboard-paint.ts) on a fleet of that size, without the rest of `npm run bench`: the
// fleet is built through the real ingest path with its last hour at 5 minutes and one live report
// (what the widgets show: the latest readings, the day's graph), the web app is built and served
// by the app under test. Prints `dashboardPaintedP50Ms` and `dashboardMapsP50Ms` (a first visit),
// and the same browser's next visit.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../packages/server/src/app.ts';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { FleetSimulator } from '../packages/server/src/demo/simulator.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { describePaint, measureDashboardPaint } from './dashboard-paint.ts';
import { openBench } from './setup.ts';
import { signIn } from './sign-in.ts';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '50000' }, runs: { type: 'string', default: '5' } } });
const NODES = Number(values.nodes);
const log = (s: string) => process.stderr.write(`${s}\n`);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { handle, ctx, org, close } = await openBench('dashboard');
try {
  const now = Math.floor(Date.now() / 1000);
  const to = now - (now % 300);
  log(`Building ${NODES} nodes (${handle.dialect}) with their last hour…`);
  const built = await buildFleet(handle.db, { count: NODES, seed: 7, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 3, now });
  const reports = nodeReports(ctx);
  await reports.joined(built);
  await ctx.telemetry.ensurePartitions(to - 2 * 86400, now + 2 * 86400);
  const sim = new FleetSimulator(handle.db, ctx.telemetry, { intervalS: 30, reports });
  await sim.load();
  await sim.run(to - 3600, to, 300);
  const live = await sim.run(to + 300, to + 300, 30);
  if (live < NODES * 0.5) throw new Error(`The live report reached only ${live} of ${NODES} nodes.`);

  log('Building the web app…');
  const web = spawnSync('npm', ['run', 'build', '-w', '@vpp/web'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
  if (web.status !== 0) throw new Error('The web app did not build.');
  const app = await buildApp(ctx, { logger: false });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const { headers, accessToken } = await signIn(base, 'bench');
    // A VPP of the whole fleet, by its postcodes, for the heat map and the VPP's figure.
    const postcodes = (await handle.db.selectFrom('nodes').select('postcode').distinct().execute()).map((r) => r.postcode);
    const res = await fetch(`${base}/api/powerstations`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'DYNAMIC', name: 'Bench fleet', filters: { postcodes: postcodes.slice(0, 1000), state: null } }),
    });
    if (!res.ok) throw new Error(`POST /api/powerstations: ${res.status}`);
    const vpp = ((await res.json()) as { data: { id: number } }).data.id;
    const paint = await measureDashboardPaint(base, accessToken, vpp, Number(values.runs));
    log(`  ${describePaint(paint.runs)} (heat map of ${paint.heatMapNodes} nodes)`);
    // biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
    console.table([
      { figure: 'dashboardPaintedP50Ms', value: p50(paint.runs.map((r) => r.painted)), target: '≤ 1500' },
      { figure: 'dashboardMapsP50Ms', value: p50(paint.runs.map((r) => r.maps)), target: '≤ 2500' },
      { figure: 'dashboardGraphP50Ms', value: p50(paint.runs.map((r) => r.graph)), target: '' },
      { figure: 'dashboardPaintedNextVisitP50Ms', value: p50(paint.runs.map((r) => r.returning.painted)), target: '' },
      { figure: 'dashboardMapsNextVisitP50Ms', value: p50(paint.runs.map((r) => r.returning.maps)), target: '' },
      { figure: 'load average (1 min) at the end', value: Math.round(os.loadavg()[0] * 10) / 10, target: '' },
    ]);
  } finally {
    await app.close();
  }
} finally {
  await close();
}
