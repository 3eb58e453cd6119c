// `npm run bench:history -- --nodes 5000 --days 30`: the disk a year of telemetry takes (issue 19).
// Builds a fleet and simulates `days` of 5-minute history a day at a time, compacting as a running
// server's hourly job does, then measures the database twice (half-way and at the end): what a day
// of history adds, per 5-minute node-sample and per node-year, is the growth between the two (the
// fixed part, nodes and their latest readings and the current day's rows, does not grow). Adds its
// figures to bench/results.json. Then reads the history back (graphs, VPP sums, energies), timed.
// PostgreSQL: set BENCH_DATABASE_URL (a fresh schema, dropped after).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { FleetSimulator } from '../packages/server/src/demo/simulator.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { openBench } from './setup.ts';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '5000' }, days: { type: 'string', default: '30' } } });
const NODES = Number(values.nodes);
const DAYS = Number(values.days);
if (!(DAYS >= 2)) throw new Error('--days must be 2 or more: the growth is measured between half-way and the end.');
const log = (s: string) => process.stderr.write(`${s}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;

const { handle, ctx, org, schema, close } = await openBench('history', { TELEMETRY_RAW_RETENTION_DAYS: '1' });
const now = Math.floor(Date.now() / 1000);
const end = now - (now % 86400);
const start = end - DAYS * 86400;
log(`Building ${NODES} nodes (${handle.dialect})…`);
const ids = await buildFleet(handle.db, {
  count: NODES,
  seed: 7,
  owners: { retailers: [org], networks: new Map(), installers: [] },
  historyDays: DAYS + 2,
  now,
});
await nodeReports(ctx).joined(ids);
await ctx.telemetry.ensurePartitions(start - 86400, now + 86400);
const sim = new FleetSimulator(handle.db, ctx.telemetry, { intervalS: 30, reports: nodeReports(ctx) });
await sim.load();

/** Bytes the database holds: SQLite's pages in use (free pages are reused by the next day's rows), PostgreSQL's relations. */
async function dbBytes(): Promise<number> {
  if (handle.dialect === 'sqlite') {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(handle.db);
    const one = async (pragma: string) => Number(Object.values((await sql.raw(`PRAGMA ${pragma}`).execute(handle.db)).rows[0] as object)[0]);
    return ((await one('page_count')) - (await one('freelist_count'))) * (await one('page_size'));
  }
  const r = await sql<{ bytes: string }>`
    select sum(pg_total_relation_size(c.oid))::bigint as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind = 'r'`.execute(handle.db);
  return Number(r.rows[0]?.bytes ?? 0);
}

let samples = 0;
let simulateMs = 0;
let compactMs = 0;
let compactedDays = 0;
const measured: { day: number; samples: number; bytes: number }[] = [];
for (let d = 0; d < DAYS; d++) {
  const from = start + d * 86400;
  let t = performance.now();
  samples += await sim.run(from, from + 86400 - 300, 300);
  simulateMs += performance.now() - t;
  t = performance.now();
  // The hourly job, run as at the end of the day: every local day ended an hour before is packed.
  compactedDays += (await ctx.telemetry.compact(from + 86400)).days;
  compactMs += performance.now() - t;
  // What autovacuum does on a running server: the packed rows' space is free for the next day's.
  if (handle.dialect === 'postgres') await sql`vacuum tel_5m, sub_5m`.execute(handle.db);
  if (d + 1 === Math.floor(DAYS / 2) || d + 1 === DAYS) {
    measured.push({ day: d + 1, samples, bytes: await dbBytes() });
    log(`  day ${d + 1}: ${samples} node-samples, ${r1((measured.at(-1)?.bytes ?? 0) / 2 ** 20)} MiB`);
  }
}
const [half, full] = measured;
// Reading the history back (compacted days and the current day's recent rows, one stream): each read
// timed cold (first) and warm (again, from the cache of unpacked days), in ms.
const readMs = async (read: () => Promise<unknown>) => {
  const t0 = performance.now();
  await read();
  const t1 = performance.now();
  await read();
  return [Math.round(t1 - t0), Math.round(performance.now() - t1)] as const;
};
const some = ids.slice(0, 50);
const cols = ['meter_p', 'solar_p', 'battery_p', 'house_p', 'soc'] as const;
const reads = {
  nodeGraphs5m: await readMs(async () => {
    for (const id of some) await ctx.telemetry.nodeSeries(id, cols, now - 86400, now, 300);
  }),
  nodeGraphsHourly: await readMs(async () => {
    for (const id of some) await ctx.telemetry.nodeSeries(id, cols, start, now, 3600);
  }),
  nodeGraphsDaily: await readMs(async () => {
    for (const id of some) await ctx.telemetry.nodeSeries(id, cols, start, now, 86400);
  }),
  vppSums5m: await readMs(() => ctx.telemetry.historySums(ids, ['meter_p', 'solar_p', 'remaining'], start, now, 300)),
  vppSumsHourly: await readMs(() => ctx.telemetry.historySums(ids, ['meter_p', 'solar_p', 'remaining'], start, now, 3600)),
  historyRowsEnergy: await readMs(() => ctx.telemetry.historyRows(ids, ['import_e', 'export_e'], start, now)),
};
for (const [name, [cold, warm]] of Object.entries(reads)) log(`  ${name}: ${cold} ms cold, ${warm} ms warm`);
// Where the bytes are, largest first.
const tables =
  handle.dialect === 'sqlite'
    ? await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat group by name order by bytes desc limit 8`.execute(handle.db)
    : await sql<{ name: string; bytes: number }>`
        select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind = 'r' order by bytes desc limit 8`.execute(handle.db);
for (const t of tables.rows) log(`  ${t.name}: ${r1(Number(t.bytes) / 2 ** 20)} MiB`);
const growth = (full.bytes - half.bytes) / (full.samples - half.samples);
const figures = {
  historyDatabase: handle.dialect,
  historyNodes: NODES,
  historyDays: DAYS,
  historySamples: samples,
  historySimulateSeconds: r1(simulateMs / 1000),
  compactNodeDaysPerSec: Math.round(compactedDays / (compactMs / 1000)),
  bytesPerNodeSample: r1(growth),
  dbBytesPerNodeSampleAll: r1(full.bytes / full.samples),
  dbBytesPerNodeYear: Math.round(growth * 288 * 365),
  dbGiBPer1000NodesYear: r1((growth * 288 * 365 * 1000) / 2 ** 30),
  historyReadColdMs: Object.values(reads).reduce((n, [cold]) => n + cold, 0),
  historyReadWarmMs: Object.values(reads).reduce((n, [, warm]) => n + warm, 0),
};
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);
const file = path.join(import.meta.dirname, 'results.json');
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
const prefix = handle.dialect === 'postgres' ? 'pg' : '';
const keyed = Object.fromEntries(Object.entries(figures).map(([k, v]) => [prefix ? `${prefix}${k[0].toUpperCase()}${k.slice(1)}` : k, v]));
fs.writeFileSync(file, `${JSON.stringify({ ...previous, ...keyed }, null, 2)}\n`);
await close();
