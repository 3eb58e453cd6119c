import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import type { FleetColumn, MetricColumn } from '../metrics.ts';
import { localMidnight } from '../physics.ts';
import './tables.ts';

type Point = Record<string, number | null>;

const NODE_TABLES = { 30: 'tel_raw', 300: 'tel_5m', 3600: 'tel_1h', 86400: 'tel_1d' } as const;

/**
 * A node's series at an interval: 30 s reads raw samples, 300 s the 5-minute rollup, 3600 s the
 * hourly and 86400 s the daily (local days). Each point is the time-weighted average.
 */
export async function nodeSeries(
  db: Database,
  nodeId: number,
  cols: readonly MetricColumn[],
  start: number,
  end: number,
  interval: number,
): Promise<Map<number, Point>> {
  const table = NODE_TABLES[interval as keyof typeof NODE_TABLES];
  if (!table) throw new Error(`No series at interval ${interval}`);
  const rows =
    table === 'tel_raw'
      ? await db
          .selectFrom('tel_raw')
          .select(['ts', ...cols])
          .where('node_id', '=', nodeId)
          .where('ts', '>=', start)
          .where('ts', '<', end)
          .orderBy('ts')
          .execute()
      : // One node's rows of the many-node read, without the node's id.
        (await nodesSeries(db, [nodeId], cols, start, end, interval)).map(({ node_id: _, ...r }) => r);
  return new Map(rows.map((r) => [Number(r.ts), r as Point]));
}

/** The intervals `nodesSeries` serves: the rollups' own, and whole multiples of 5 minutes below an hour. */
export const isRollupInterval = (interval: number) => interval === 3600 || interval === 86400 || (interval % 300 === 0 && interval > 0 && interval < 3600);

/**
 * Several nodes' series at a rollup interval, in (ts, node) order: each point the time-weighted
 * average of its bucket. 300 s, 3600 s and 86400 s read their rollup (hours and days are each node's
 * local ones); other multiples of 5 minutes below an hour (600, 1800) add up 5-minute rollup rows,
 * sum(value × seconds) / sum(seconds), exactly as a rollup of that length would hold.
 */
export async function nodesSeries(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly MetricColumn[],
  start: number,
  end: number,
  interval: number,
): Promise<(Point & { node_id: number; ts: number })[]> {
  if (!isRollupInterval(interval)) throw new Error(`No rollup series at interval ${interval}`);
  if (nodeIds.length === 0) return [];
  const own = NODE_TABLES[interval as keyof typeof NODE_TABLES];
  const rows = own
    ? await db
        .selectFrom(own as 'tel_5m')
        .select(['node_id', 'ts', ...cols.map((c) => sql<number | null>`${sql.ref(c)} / nullif(cov, 0)`.as(c))])
        .where('node_id', 'in', nodeIds)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .orderBy('ts')
        .orderBy('node_id')
        .execute()
    : await db
        .selectFrom('tel_5m')
        .select(({ fn }) => [
          'node_id',
          sql<number>`ts - (ts % ${sql.lit(interval)})`.as('bucket'),
          ...cols.map((c) => sql<number | null>`${fn.sum(c)} / nullif(${fn.sum('cov')}, 0)`.as(c)),
        ])
        .where('node_id', 'in', nodeIds)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .groupBy(['node_id', sql`ts - (ts % ${sql.lit(interval)})`])
        .orderBy('bucket')
        .orderBy('node_id')
        .execute()
        .then((rs) => rs.map(({ bucket, ...r }) => ({ ...r, ts: bucket })));
  return rows as (Point & { node_id: number; ts: number })[];
}

/**
 * Several nodes' rollup rows as stored, in (ts, node) order: each column's time integral and the
 * seconds covered (cov), so that a caller can gather them into buckets of its own (an export's local
 * hours or days in another zone): a bucket's value is sum(column) / sum(cov), as `nodesSeries` adds up
 * 5-minute rows.
 */
export async function nodesRollupRows(
  db: Database,
  table: 'tel_5m' | 'tel_1h' | 'tel_1d',
  nodeIds: readonly number[],
  cols: readonly MetricColumn[],
  start: number,
  end: number,
): Promise<(Point & { node_id: number; ts: number; cov: number })[]> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom(table as 'tel_5m')
    .select(['node_id', 'ts', 'cov', ...cols])
    .where('node_id', 'in', nodeIds)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .orderBy('ts')
    .orderBy('node_id')
    .execute();
  return rows as unknown as (Point & { node_id: number; ts: number; cov: number })[];
}

/** Energy totals (kWh) of a node over [start, end): import, export, generation, consumption. */
export async function nodeEnergy(db: Database, nodeId: number, start: number, end: number, table: 'tel_5m' | 'tel_1h' | 'tel_1d') {
  const total = (c: 'import_e' | 'export_e' | 'solar_e' | 'house_e') => sql<number>`coalesce(sum(${sql.ref(c)}), 0)`.as(c);
  const r = await db
    .selectFrom(table as 'tel_5m')
    .select([total('import_e'), total('export_e'), total('solar_e'), total('house_e')])
    .where('node_id', '=', nodeId)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .executeTakeFirstOrThrow();
  return { meterImport: Number(r.import_e), meterExport: Number(r.export_e), solarGeneration: Number(r.solar_e), houseConsumption: Number(r.house_e) };
}

/**
 * The solar held back by export limits (kWh) of nodes over [start, end): one row per node and
 * 5-minute bucket that had any (buckets without curtailment store none), in node then time order.
 */
export async function curtailedEnergy(db: Database, nodeIds: readonly number[], start: number, end: number) {
  const out: { nodeId: number; ts: number; kwh: number }[] = [];
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await db
      .selectFrom('tel_5m')
      .select(['node_id', 'ts', 'curtailed_e'])
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('ts', '>=', start)
      .where('ts', '<', end)
      .where('curtailed_e', '>', 0)
      .orderBy('node_id')
      .orderBy('ts')
      .execute();
    for (const r of rows) out.push({ nodeId: r.node_id, ts: Number(r.ts), kwh: Number(r.curtailed_e) });
  }
  return out;
}

/**
 * The whole fleet of an organisation: at each bucket the sum over its nodes of their average power
 * (or remaining charge). 300 s and 3600 s read the organisation rollups; 86400 s adds up
 * 5-minute buckets into the local days of `zone`. Only closed buckets (ended by `now`) count.
 */
export async function fleetSeries(
  db: Database,
  orgId: number,
  cols: readonly FleetColumn[],
  start: number,
  end: number,
  interval: number,
  zone: string,
  now = nowS(),
): Promise<Map<number, Point>> {
  const table = interval === 3600 ? 'org_1h' : 'org_5m';
  const bucket = interval === 3600 ? 3600 : 300;
  // A bucket still filling holds only part of its energy: it is left out until it closes.
  const closed = Math.min(end, now - (now % bucket));
  const rows = (await db
    .selectFrom(table as 'org_5m')
    .select(['ts', ...cols.map((c) => sql<number | null>`${sql.ref(c)} / ${sql.lit(bucket)}`.as(c))])
    .where('organisation_id', '=', orgId)
    .where('ts', '>=', start)
    .where('ts', '<', closed)
    .orderBy('ts')
    .execute()) as (Point & { ts: number })[];
  if (interval !== 86400) return new Map(rows.map((r) => [Number(r.ts), r]));
  const days = new Map<number, { n: number; sums: Record<string, number> }>();
  for (const r of rows) {
    const day = localMidnight(zone, Number(r.ts));
    const d = days.get(day) ?? { n: 0, sums: Object.fromEntries(cols.map((c) => [c, 0])) };
    d.n++;
    for (const c of cols) d.sums[c] += Number(r[c] ?? 0);
    days.set(day, d);
  }
  return new Map([...days].map(([day, d]) => [day, Object.fromEntries(cols.map((c) => [c, d.sums[c] / d.n]))]));
}

/** Submeter power and reactive power, 5-minute averages. */
export async function submeterSeries(db: Database, submeterId: number, start: number, end: number) {
  return submetersSeries(db, [submeterId], start, end);
}

/** Several submeters' 5-minute averages of power and reactive power, in (ts, submeter) order. */
export async function submetersSeries(db: Database, submeterIds: readonly number[], start: number, end: number) {
  if (submeterIds.length === 0) return [];
  return db
    .selectFrom('sub_5m')
    .select(['submeter_id', 'ts', sql<number | null>`p / nullif(cov, 0)`.as('p'), sql<number | null>`q / nullif(cov, 0)`.as('q')])
    .where('submeter_id', 'in', submeterIds)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .orderBy('ts')
    .orderBy('submeter_id')
    .execute();
}
