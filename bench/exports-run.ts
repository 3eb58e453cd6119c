// `npm run bench:exports -- --nodes 2000 --days 7`: the export figures alone (bench/exports.ts) on a
// fleet of their own, for a quick run; `npm run bench` measures them with everything else.
// PostgreSQL: set BENCH_DATABASE_URL (a fresh schema is used and dropped).
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../packages/server/src/app.ts';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { FleetSimulator } from '../packages/server/src/demo/simulator.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { benchExports } from './exports.ts';
import { openBench } from './setup.ts';
import { signIn } from './sign-in.ts';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '2000' }, days: { type: 'string', default: '7' } } });
const NODES = Number(values.nodes);
const DAYS = Number(values.days);
const log = (s: string) => process.stderr.write(`${s}\n`);

const { handle, ctx, org, close } = await openBench('exports', { TELEMETRY_RAW_RETENTION_DAYS: '1' });
const now = Math.floor(Date.now() / 1000);
const end = now - (now % 86400);
const start = end - DAYS * 86400;
log(`Building ${NODES} nodes and ${DAYS} days at 5 minutes (${handle.dialect})…`);
const ids = await buildFleet(handle.db, {
  count: NODES,
  seed: 7,
  owners: { retailers: [org], networks: new Map(), installers: [] },
  historyDays: DAYS + 2,
  now,
});
const reports = nodeReports(ctx);
await reports.joined(ids);
await ctx.telemetry.ensurePartitions(start - 86400, now + 86400);
const sim = new FleetSimulator(handle.db, ctx.telemetry, { intervalS: 30, reports });
await sim.load();
await sim.run(start, end, 300);
// Days that have ended are read compacted, as on a running server (the hourly job).
await ctx.telemetry.compact(now);
if (handle.dialect === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(handle.db);

const app = await buildApp(ctx, { logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const { headers } = await signIn(base, 'bench');
const vpp = await fetch(`${base}/api/powerstations`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'STATIC', name: 'Bench exports', nodes: ids.slice(0, 10_000) }),
});
const vppId = ((await vpp.json()) as { data: { id: number } }).data.id;
// The whole fleet as a VPP by its postcodes, as `npm run bench` has: another user's VPP list meanwhile lists both.
const postcodes = (await handle.db.selectFrom('nodes').select('postcode').distinct().execute()).map((r) => r.postcode);
const fleetVpp = await fetch(`${base}/api/powerstations`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'DYNAMIC', name: 'Bench fleet', filters: { postcodes: postcodes.slice(0, 1000), state: null } }),
});
if (!fleetVpp.ok) throw new Error(`POST /api/powerstations: ${fleetVpp.status} ${await fleetVpp.text()}`);
const figures = await benchExports(ctx, base, headers, { vpp: vppId, nodes: Math.min(ids.length, 10_000), start, end });
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table({ database: handle.dialect, nodes: NODES, days: DAYS, ...figures });
await app.close();
await close();
