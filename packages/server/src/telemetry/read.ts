import { localBucketStart, localMidnight } from '@vpp/shared/time';
import { sql } from 'kysely';
import { type Database, nowS } from '../db/database.ts';
import type { FleetColumn, MetricColumn } from './metrics.ts';
import { CHUNK, type HistoryColumn, readBuckets } from './stream.ts';
import './tables.ts';

// The readers of the history, each consuming the one stream of buckets (stream.ts): a node's
// series and energy, several nodes' series, VPP sums, curtailed energy, submeter series; and the
// fleet's series, from the organisations' rollups.

type Point = Record<string, number | null>;

/** A 5-minute bucket of a node's history: each metric's time integral (value × seconds), energies (kWh), and the seconds covered. */
export type HistoryRow = Point & { node_id: number; ts: number; cov: number };

/**
 * The 5-minute buckets with data of nodes over [start, end), as rows (integrals, energies, covered
 * seconds), in (ts, node) order.
 */
export async function historyRows(db: Database, nodeIds: readonly number[], cols: readonly HistoryColumn[], start: number, end: number): Promise<HistoryRow[]> {
  const out: HistoryRow[] = [];
  await readBuckets(db, { of: 'nodes', cols }, nodeIds, start, end, (node, ts, cov, values) => {
    const row: HistoryRow = { node_id: node, ts, cov };
    for (let j = 0; j < cols.length; j++) row[cols[j]] = Number.isNaN(values[j]) ? null : values[j];
    out.push(row);
  });
  return inTimeOrder(out, start);
}

/**
 * Rows in (ts, node) order: gathered by 5-minute bucket (a counting sort, the buckets being
 * multiples of 5 minutes from `start`'s), each bucket's rows sorted by node only when they are not
 * already (the stream comes node by node within a chunk).
 */
function inTimeOrder(rows: HistoryRow[], start: number): HistoryRow[] {
  const first = start - (((start % 300) + 300) % 300);
  const buckets: HistoryRow[][] = [];
  for (const r of rows) {
    const k = (r.ts - first) / 300;
    const b = buckets[k];
    if (b) b.push(r);
    else buckets[k] = [r];
  }
  const out: HistoryRow[] = [];
  for (const b of buckets) {
    if (!b) continue;
    let ordered = true;
    for (let i = 1; i < b.length && ordered; i++) ordered = b[i - 1].node_id < b[i].node_id;
    if (!ordered) b.sort((x, y) => x.node_id - y.node_id);
    for (const r of b) out.push(r);
  }
  return out;
}

/** Each node's time zone. */
async function zonesOf(db: Database, nodeIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < nodeIds.length; i += CHUNK) {
    for (const r of await db
      .selectFrom('nodes')
      .select(['id', 'timezone'])
      .where('id', 'in', nodeIds.slice(i, i + CHUNK))
      .execute())
      out.set(r.id, r.timezone);
  }
  return out;
}

/** The buckets history rows are gathered into: 5-minute multiples (UTC), or each node's local hours or days. */
type Gathering = { every: number } | { local: 'hour' | 'day' };

/**
 * Nodes' history added up into buckets per node: each bucket's integrals and covered seconds summed,
 * in (bucket, node) order. Local hours start at the node's local midnight (half past the UTC hour in
 * Adelaide), local days at its midnights (23, 24 or 25 hours); a compacted day says its own midnight.
 */
async function historyBuckets(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly HistoryColumn[],
  start: number,
  end: number,
  by: Gathering,
): Promise<HistoryRow[]> {
  const zones = 'local' in by ? await zonesOf(db, nodeIds) : null;
  const buckets = new Map<number, HistoryRow>();
  let lastKey = -1;
  let last: HistoryRow | undefined;
  await readBuckets(db, { of: 'nodes', cols }, nodeIds, start, end, (node, ts, cov, values, midnight) => {
    let bucket: number;
    if ('every' in by) bucket = ts - (ts % by.every);
    else {
      const m = midnight ?? localMidnight(zones?.get(node) ?? 'UTC', ts);
      bucket = by.local === 'day' ? m : localBucketStart(ts, 3600, m);
    }
    const key = node * 1e7 + bucket / 300;
    let b = key === lastKey ? last : buckets.get(key);
    if (!b) {
      b = { node_id: node, ts: bucket, cov: 0 };
      for (const c of cols) b[c] = null;
      buckets.set(key, b);
    }
    lastKey = key;
    last = b;
    b.cov += cov;
    for (let j = 0; j < cols.length; j++) {
      const v = values[j];
      if (!Number.isNaN(v)) b[cols[j]] = b[cols[j]] === null ? v : (b[cols[j]] as number) + v;
    }
  });
  // Only the buckets that begin in the range (a half-hour zone's first local hour may begin before it,
  // with only part of its readings in it), as the stored rollups answered before issue 19.
  return [...buckets.values()].filter((b) => b.ts >= start).sort((a, b) => a.ts - b.ts || a.node_id - b.node_id);
}

/** The intervals `nodesSeries` serves: 5 minutes, its whole multiples below an hour, local hours and days. */
export const isRollupInterval = (interval: number) => interval === 3600 || interval === 86400 || (interval % 300 === 0 && interval > 0 && interval < 3600);

const gatheringOf = (interval: number): Gathering => (interval === 3600 ? { local: 'hour' } : interval === 86400 ? { local: 'day' } : { every: interval });

/**
 * A node's series at an interval: 30 s reads raw samples (and the open readings not yet folded); 300 s the 5-minute history; 3600 s and
 * 86400 s its local hours and days added up from it. Each point is the time-weighted average.
 */
export async function nodeSeries(
  db: Database,
  nodeId: number,
  cols: readonly MetricColumn[],
  start: number,
  end: number,
  interval: number,
): Promise<Map<number, Point>> {
  if (interval !== 30 && !isRollupInterval(interval)) throw new Error(`No series at interval ${interval}`);
  const rows =
    interval === 30
      ? // The history's raw samples, then the readings whose 5-minute bucket is still open.
        await db
          .selectFrom('tel_raw')
          .select(['ts', ...cols])
          .where('node_id', '=', nodeId)
          .where('ts', '>=', start)
          .where('ts', '<', end)
          .unionAll(
            db
              .selectFrom('tel_open')
              .select(['ts', ...cols])
              .where('node_id', '=', nodeId)
              .where('ts', '>=', start)
              .where('ts', '<', end),
          )
          .orderBy('ts')
          .execute()
      : // One node's rows of the many-node read, without the node's id.
        (await nodesSeries(db, [nodeId], cols, start, end, interval)).map(({ node_id: _, ...r }) => r);
  return new Map(rows.map((r) => [Number(r.ts), r as Point]));
}

/**
 * Several nodes' series at a rollup interval, in (ts, node) order: each point the time-weighted
 * average of its bucket, sum(value × seconds) / sum(seconds) over its 5-minute buckets. Hours and
 * days are each node's local ones; other multiples of 5 minutes below an hour (600, 1800) UTC ones.
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
  const rows = interval === 300 ? await historyRows(db, nodeIds, cols, start, end) : await historyBuckets(db, nodeIds, cols, start, end, gatheringOf(interval));
  // The rows are this read's own: each integral becomes its average in place.
  for (const r of rows) for (const c of cols) r[c] = r[c] === null || !(r.cov > 0) ? null : (r[c] as number) / r.cov;
  return rows;
}

/** Energy totals (kWh) of a node over [start, end): import, export, generation, consumption. */
export async function nodeEnergy(db: Database, nodeId: number, start: number, end: number) {
  const total = [0, 0, 0, 0];
  await readBuckets(db, { of: 'nodes', cols: ['import_e', 'export_e', 'solar_e', 'house_e'] }, [nodeId], start, end, (_node, _ts, _cov, values) => {
    for (let j = 0; j < 4; j++) if (!Number.isNaN(values[j])) total[j] += values[j];
  });
  return { meterImport: total[0], meterExport: total[1], solarGeneration: total[2], houseConsumption: total[3] };
}

/**
 * The solar held back by export limits (kWh) of nodes over [start, end): one row per node and
 * 5-minute bucket that had any (buckets without curtailment store none), in node then time order.
 */
export async function curtailedEnergy(db: Database, nodeIds: readonly number[], start: number, end: number) {
  const out: { nodeId: number; ts: number; kwh: number }[] = [];
  for (const r of await historyRows(db, nodeIds, ['curtailed_e'], start, end)) {
    const kwh = r.curtailed_e;
    if (kwh !== null && kwh > 0) out.push({ nodeId: r.node_id, ts: r.ts, kwh });
  }
  return out.sort((a, b) => a.nodeId - b.nodeId || a.ts - b.ts);
}

/** At a bucket: the sum over nodes of each column's average, and the nodes with data. */
export type BucketSums = Record<string, number | null> & { nodes: number };

/**
 * At each bucket of [start, end) (5 minutes, or UTC hours), the sum over the nodes of each metric's
 * average in the bucket (sum(value × seconds) / sum(seconds) per node), and how many nodes had data:
 * VPP series, a dispatch's stored energy, a curtailment's measured response. A node's UTC hour may
 * lie in two of its local days (a half-hour zone's), compacted or recent alike.
 */
export async function historySums(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly MetricColumn[],
  start: number,
  end: number,
  step: 300 | 3600,
): Promise<Map<number, BucketSums>> {
  const out = new Map<number, BucketSums>();
  /** Adds a node's average over a bucket (`seen`: the columns with a value) into the sums at `at`. */
  const addNode = (at: number, seconds: number, integral: Float64Array, seen: (j: number) => boolean) => {
    let b = out.get(at);
    if (!b) {
      b = { nodes: 0 } as BucketSums;
      for (const c of cols) b[c] = null;
      out.set(at, b);
    }
    b.nodes++;
    for (let j = 0; j < cols.length; j++) {
      if (!seen(j)) continue;
      const v = integral[j] / seconds;
      const c = cols[j];
      b[c] = b[c] === null ? v : (b[c] as number) + v;
    }
  };
  const h = { of: 'nodes', cols } as const;
  if (step === 300) {
    // Each bucket of the stream is a node's whole 5-minute bucket.
    await readBuckets(db, h, nodeIds, start, end, (_id, ts, cov, values) => {
      if (cov > 0) addNode(ts, cov, values, (j) => !Number.isNaN(values[j]));
    });
    return out;
  }
  // A node's hour at a time (the stream comes node by node, in time order): added in when it ends.
  let node = -1;
  let at = -1;
  let seconds = 0;
  const integral = new Float64Array(cols.length);
  const seen = new Uint8Array(cols.length);
  const flush = () => {
    if (seconds > 0) addNode(at, seconds, integral, (j) => seen[j] === 1);
  };
  await readBuckets(db, h, nodeIds, start, end, (id, ts, cov, values) => {
    if (!(cov > 0)) return;
    const bucket = ts - (ts % step);
    if (id !== node || bucket !== at) {
      flush();
      node = id;
      at = bucket;
      seconds = 0;
      integral.fill(0);
      seen.fill(0);
    }
    seconds += cov;
    for (let j = 0; j < cols.length; j++) {
      const v = values[j];
      if (Number.isNaN(v)) continue;
      integral[j] += v;
      seen[j] = 1;
    }
  });
  flush();
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
  // A bucket still filling holds only part of its energy: it is left out until it closes, and until
  // the fold has moved the readings of its last 5 minutes in (the open table holds readings of the
  // 5 minutes just ended until the report after they ended folds them).
  const open = now - (now % 300);
  const waiting = await db
    .selectFrom('tel_open')
    .select(({ fn }) => fn.min('ts').as('ts'))
    .where('ts', '>=', open - 300)
    .where('ts', '<', open)
    .executeTakeFirst();
  const folded = waiting?.ts == null ? open : open - 300;
  const closed = Math.min(end, now - (now % bucket), folded - (folded % bucket));
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
  const out: { submeter_id: number; ts: number; p: number | null; q: number | null }[] = [];
  await readBuckets(db, { of: 'submeters', cols: ['p', 'q'] }, submeterIds, start, end, (id, ts, cov, [p, q]) => {
    const ok = cov > 0;
    out.push({ submeter_id: id, ts, p: ok && !Number.isNaN(p) ? p / cov : null, q: ok && !Number.isNaN(q) ? q / cov : null });
  });
  return out.sort((a, b) => a.ts - b.ts || a.submeter_id - b.submeter_id);
}
