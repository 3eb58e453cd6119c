import { localBucketStart, localMidnight } from '@vpp/shared';
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import { type Database, nowS } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { type Day, dayColumnIndex, decodeDay, decodeSubDay, groupsOf } from './compact.ts';
import { ENERGY_COLUMNS, type EnergyColumn, type FleetColumn, type MetricColumn } from './metrics.ts';
import './tables.ts';

type Point = Record<string, number | null>;

/** A node history column: a metric (time integral in the rows) or an energy (kWh). */
export type HistoryColumn = MetricColumn | EnergyColumn;
/** A 5-minute bucket of a node's history: each metric's time integral (value × seconds), energies (kWh), and the seconds covered. */
export type HistoryRow = Point & { node_id: number; ts: number; cov: number };

const ENERGIES = new Set<string>(ENERGY_COLUMNS);
/** A day row reaching into [start, …): local days last at most 25 hours. */
const LONGEST_DAY_S = 25 * 3600;
/** Nodes per query. */
const CHUNK = 1000;

/**
 * Runs reads of both places of the history (compacted days, recent rows) in one snapshot, so that a
 * compaction committing in between neither hides a bucket nor shows it twice.
 */
function inSnapshot<T>(db: Database, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (pg ? db.transaction().setIsolationLevel('repeatable read') : db.transaction()).execute(read);
}

/** The compacted days of nodes reaching into [start, end), with the column groups that hold `cols`, each day's parts together. */
async function compactedDays(db: Database | Transaction<DB>, ids: readonly number[], cols: readonly string[], start: number, end: number) {
  const rows = await db
    .selectFrom('tel_day')
    .select(['node_id', 'day', 'grp', 'slots', 'data'])
    .where('node_id', 'in', ids)
    .where('day', '>', start - LONGEST_DAY_S)
    .where('day', '<', end)
    .where('grp', 'in', groupsOf(cols.length ? cols : ['meter_p']))
    .orderBy('node_id')
    .orderBy('day')
    .execute();
  const out: { node_id: number; day: number; slots: number; parts: { data: Uint8Array }[] }[] = [];
  for (const r of rows) {
    const last = out.at(-1);
    if (last && last.node_id === r.node_id && last.day === Number(r.day)) last.parts.push(r);
    else out.push({ node_id: r.node_id, day: Number(r.day), slots: Number(r.slots), parts: [r] });
  }
  return out;
}

/**
 * Compacted days unpacked once for a reader that comes back to them page after page (an export),
 * up to a bound of memory; each checked against the stored parts' lengths and content checksums
 * (zstd's, the last 4 bytes of a part) when used again, so a day a compaction rewrote meanwhile is
 * unpacked anew. Days ending before a page are let go.
 */
export class DayCache {
  private readonly days = new Map<string, { start: number; parts: string; day: Day; bytes: number }>();
  private bytes = 0;
  constructor(private readonly maxBytes = 128 * 2 ** 20) {}

  /** The day unpacked, if it was unpacked from the same stored parts (`parts`: their lengths and checksums). */
  get(node: number, start: number, parts: string): Day | undefined {
    const e = this.days.get(`${node}:${start}`);
    return e && e.parts === parts ? e.day : undefined;
  }

  set(node: number, start: number, parts: string, day: Day) {
    const key = `${node}:${start}`;
    const old = this.days.get(key);
    if (old) this.bytes -= old.bytes;
    const bytes = day.columns.reduce((n, c) => n + (c?.byteLength ?? 0), 0);
    if (this.bytes + bytes > this.maxBytes) return void this.days.delete(key);
    this.days.set(key, { start, parts, day, bytes });
    this.bytes += bytes;
  }

  /** Lets go of the days that end before `ts`. */
  forgetBefore(ts: number) {
    for (const [key, e] of this.days) {
      if (e.start + e.day.slots * 300 > ts) continue;
      this.days.delete(key);
      this.bytes -= e.bytes;
    }
  }
}

/** The compacted days of the nodes reaching into [start, end), unpacked (the columns `want` holds), from `cache` where it has them. */
async function unpackedDays(
  trx: Transaction<DB>,
  ids: readonly number[],
  cols: readonly string[],
  want: ReadonlySet<number>,
  start: number,
  end: number,
  cache: DayCache | undefined,
): Promise<{ node_id: number; day: number; unpacked: Day }[]> {
  if (!cache) return (await compactedDays(trx, ids, cols, start, end)).map((d) => ({ node_id: d.node_id, day: d.day, unpacked: decodeDay(d.parts, want) }));
  const groups = groupsOf(cols.length ? cols : ['meter_p']);
  // A part is known by its length and its last 4 bytes (zstd's checksum of its content).
  const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
  const tail = pg ? sql<string>`encode(substring(data from length(data) - 3), 'hex')` : sql<string>`hex(substr(data, -4))`;
  const parts = await trx
    .selectFrom('tel_day')
    .select(['node_id', 'day', sql<number>`length(data)`.as('length'), tail.as('tail')])
    .where('node_id', 'in', ids)
    .where('day', '>', start - LONGEST_DAY_S)
    .where('day', '<', end)
    .where('grp', 'in', groups)
    .orderBy('node_id')
    .orderBy('day')
    .orderBy('grp')
    .execute();
  const out: { node_id: number; day: number; unpacked: Day | undefined; key: string }[] = [];
  for (const p of parts) {
    const day = Number(p.day);
    const last = out.at(-1);
    if (last && last.node_id === p.node_id && last.day === day) last.key += `/${p.length}:${p.tail.toLowerCase()}`;
    else out.push({ node_id: p.node_id, day, key: `${p.length}:${p.tail.toLowerCase()}`, unpacked: undefined });
  }
  for (const d of out) d.unpacked = cache.get(d.node_id, d.day, d.key);
  const missing = out.filter((d) => !d.unpacked);
  if (missing.length) {
    const fetched = await compactedDays(trx, [...new Set(missing.map((d) => d.node_id))], cols, start, end);
    const byKey = new Map(fetched.map((d) => [`${d.node_id}:${d.day}`, d]));
    for (const d of missing) {
      const parts = byKey.get(`${d.node_id}:${d.day}`);
      if (!parts) continue;
      d.unpacked = decodeDay(parts.parts, want);
      cache.set(d.node_id, d.day, d.key, d.unpacked);
    }
  }
  return out.flatMap((d) => (d.unpacked ? [{ node_id: d.node_id, day: d.day, unpacked: d.unpacked }] : []));
}

/**
 * A run of one node's consecutive 5-minute buckets, as the history holds them: slot k (from ≤ k < to)
 * starts at ts + k × 300 and covers cov[k] seconds. Each column's values (NaN for none) are, for a
 * compacted day (`midnight` its local midnight), the metrics' averages and the energies; for a recent
 * row (a run of one, `midnight` undefined), the metrics' time integrals and the energies.
 */
export interface HistoryRun {
  node: number;
  ts: number;
  from: number;
  to: number;
  cov: ArrayLike<number>;
  values: readonly ArrayLike<number>[];
  midnight: number | undefined;
}

const NO_VALUES = new Float32Array(300).fill(Number.NaN);

/**
 * The one read of node history: visits the nodes' history over [start, end) run by run, from their
 * compacted days (compact.ts, a run per day) and the recent rows of tel_5m (a run per row), read in
 * one snapshot per chunk of nodes, days first. A bucket found in both places (readings of a compacted
 * day that came late, until the next compaction moves them) is visited once from each, with its part.
 */
export async function visitRuns(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly HistoryColumn[],
  start: number,
  end: number,
  visit: (run: HistoryRun) => void,
  cache?: DayCache,
): Promise<void> {
  const want = new Set([0, ...cols.map(dayColumnIndex)]);
  const cov = new Float64Array(1);
  const one = cols.map(() => new Float64Array(1));
  for (let i = 0; i < nodeIds.length; i += CHUNK) {
    const ids = nodeIds.slice(i, i + CHUNK);
    const { recent, days } = await inSnapshot(db, async (trx) => ({
      recent: (await trx
        .selectFrom('tel_5m')
        .select(['node_id', 'ts', 'cov', ...cols])
        .where('node_id', 'in', ids)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .orderBy('node_id')
        .orderBy('ts')
        .execute()) as unknown as HistoryRow[],
      days: await unpackedDays(trx, ids, cols, want, start, end, cache),
    }));
    for (const d of days) {
      const { slots, columns } = d.unpacked;
      if (!columns[0]) continue;
      visit({
        node: d.node_id,
        ts: d.day,
        from: Math.max(0, Math.ceil((start - d.day) / 300)),
        to: Math.min(slots, Math.ceil((end - d.day) / 300)),
        cov: columns[0],
        values: cols.map((c) => columns[dayColumnIndex(c)] ?? NO_VALUES),
        midnight: d.day,
      });
    }
    const run: HistoryRun = { node: 0, ts: 0, from: 0, to: 1, cov, values: one, midnight: undefined };
    for (const r of recent) {
      for (let j = 0; j < cols.length; j++) {
        const v = r[cols[j]];
        one[j][0] = v === null || v === undefined ? Number.NaN : Number(v);
      }
      cov[0] = Number(r.cov);
      run.node = r.node_id;
      run.ts = Number(r.ts);
      visit(run);
    }
  }
}

/**
 * Every 5-minute bucket with data of the nodes over [start, end) (visitRuns): its node, start, covered
 * seconds and each column's value (a metric's time integral, an energy; NaN for none), and for a
 * compacted day its local midnight.
 */
async function visitHistory(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly HistoryColumn[],
  start: number,
  end: number,
  visit: (node: number, ts: number, cov: number, values: Float64Array, midnight: number | undefined) => void,
  cache?: DayCache,
): Promise<void> {
  const energy = cols.map((c) => ENERGIES.has(c));
  const values = new Float64Array(cols.length);
  await visitRuns(
    db,
    nodeIds,
    cols,
    start,
    end,
    (run) => {
      const compacted = run.midnight !== undefined;
      for (let k = run.from; k < run.to; k++) {
        const seconds = run.cov[k];
        if (compacted && !(seconds > 0)) continue;
        for (let j = 0; j < cols.length; j++) {
          const v = run.values[j][k];
          values[j] = compacted && !energy[j] ? v * seconds : v;
        }
        visit(run.node, run.ts + k * 300, seconds, values, run.midnight);
      }
    },
    cache,
  );
}

/**
 * The 5-minute buckets with data of nodes over [start, end), as rows (integrals, energies, covered
 * seconds), in (ts, node) order; a bucket found in both places added up into one row.
 */
export async function historyRows(
  db: Database,
  nodeIds: readonly number[],
  cols: readonly HistoryColumn[],
  start: number,
  end: number,
  cache?: DayCache,
): Promise<HistoryRow[]> {
  const out: HistoryRow[] = [];
  let fromDays = 0;
  let recent = 0;
  await visitHistory(
    db,
    nodeIds,
    cols,
    start,
    end,
    (node, ts, cov, values, midnight) => {
      const row: HistoryRow = { node_id: node, ts, cov };
      for (let j = 0; j < cols.length; j++) row[cols[j]] = Number.isNaN(values[j]) ? null : values[j];
      out.push(row);
      if (midnight === undefined) recent++;
      else fromDays++;
    },
    cache,
  );
  return inTimeOrder(fromDays && recent ? addedUp(out, cols) : out, start);
}

/** Rows of the same node and bucket added into the first of them. */
function addedUp(rows: readonly HistoryRow[], cols: readonly HistoryColumn[]): HistoryRow[] {
  const byKey = new Map<number, HistoryRow>();
  const out: HistoryRow[] = [];
  for (const r of rows) {
    const key = r.node_id * 1e7 + r.ts / 300;
    const first = byKey.get(key);
    if (!first) {
      byKey.set(key, r);
      out.push(r);
      continue;
    }
    first.cov += r.cov;
    for (const c of cols) {
      const v = r[c];
      if (v !== null) first[c] = first[c] === null ? v : (first[c] as number) + v;
    }
  }
  return out;
}

/**
 * Rows in (ts, node) order: gathered by 5-minute bucket (a counting sort, the buckets being
 * multiples of 5 minutes from `start`'s), each bucket's rows sorted by node only when they are not
 * already (the compacted days come node by node).
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
  cache?: DayCache,
): Promise<HistoryRow[]> {
  const zones = 'local' in by ? await zonesOf(db, nodeIds) : null;
  const buckets = new Map<number, HistoryRow>();
  let lastKey = -1;
  let last: HistoryRow | undefined;
  await visitHistory(
    db,
    nodeIds,
    cols,
    start,
    end,
    (node, ts, cov, values, midnight) => {
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
    },
    cache,
  );
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
  cache?: DayCache,
): Promise<(Point & { node_id: number; ts: number })[]> {
  if (!isRollupInterval(interval)) throw new Error(`No rollup series at interval ${interval}`);
  if (nodeIds.length === 0) return [];
  const rows =
    interval === 300
      ? await historyRows(db, nodeIds, cols, start, end, cache)
      : await historyBuckets(db, nodeIds, cols, start, end, gatheringOf(interval), cache);
  // The rows are this read's own: each integral becomes its average in place.
  for (const r of rows) for (const c of cols) r[c] = r[c] === null || !(r.cov > 0) ? null : (r[c] as number) / r.cov;
  return rows;
}

/** Energy totals (kWh) of a node over [start, end): import, export, generation, consumption. */
export async function nodeEnergy(db: Database, nodeId: number, start: number, end: number) {
  const total = [0, 0, 0, 0];
  await visitHistory(db, [nodeId], ['import_e', 'export_e', 'solar_e', 'house_e'], start, end, (_node, _ts, _cov, values) => {
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
 * VPP series, a dispatch's stored energy, a curtailment's measured response. Compacted days are added
 * up here; the recent rows' 5-minute sums in the database, their hours per node (an hour of a
 * half-hour zone starts in one local day and ends in the next). A 5-minute bucket of a node found in
 * both places (a late reading of a compacted day, until the next hourly compaction moves it) is added
 * up into one average, counted once, as the node's graph shows it.
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
  const add = (ts: number, values: readonly number[], nodes: number) => {
    let b = out.get(ts);
    if (!b) {
      b = { nodes: 0 } as BucketSums;
      for (const c of cols) b[c] = null;
      out.set(ts, b);
    }
    b.nodes += nodes;
    for (const [j, c] of cols.entries()) {
      const v = values[j];
      if (!Number.isNaN(v)) b[c] = b[c] === null ? v : (b[c] as number) + v;
    }
  };
  const want = new Set([0, ...cols.map(dayColumnIndex)]);
  for (let i = 0; i < nodeIds.length; i += CHUNK) {
    const ids = nodeIds.slice(i, i + CHUNK);
    const bucket = sql`ts - (ts % ${sql.lit(step)})`;
    const inRange = sql`node_id in (${sql.join(ids)}) and ts >= ${start} and ts < ${end} and cov > 0`;
    // The recent rows' 5-minute sums over nodes; their hours per node (an hour of a half-hour zone may
    // begin in a compacted day and end in the recent rows).
    const averages = sql.join(cols.map((c) => sql`sum(${sql.ref(c)} / cov) as ${sql.ref(c)}`));
    const integrals = sql.join(cols.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));
    const { days, recent, late } = await inSnapshot(db, async (trx) => {
      const days = await compactedDays(trx, ids, cols, start, end);
      // At 5 minutes the recent rows are summed over nodes in the database; the few that lie in a
      // compacted day of their node (late readings) are read one by one as well, to be merged.
      const compactedTo = days.reduce((a, d) => Math.max(a, d.day + d.slots * 300), 0);
      return {
        days,
        recent: (step === 300
          ? await sql<Point>`select ts, count(*) as nodes, ${averages} from tel_5m where ${inRange} group by ts`.execute(trx)
          : await sql<Point>`select node_id, ${bucket} as hour, sum(cov) as cov, ${integrals} from tel_5m where ${inRange} group by node_id, ${bucket}`.execute(
              trx,
            )
        ).rows,
        late:
          step === 300 && compactedTo > start
            ? (
                await sql<Point>`select t.node_id, t.ts, t.cov, ${sql.join(cols.map((c) => sql.ref(`t.${c}`)))} from tel_5m t
                  where t.node_id in (${sql.join(ids)}) and t.ts >= ${start} and t.ts < ${Math.min(end, compactedTo)} and t.cov > 0
                    and exists (select 1 from tel_day d where d.node_id = t.node_id and d.day <= t.ts and d.day > t.ts - ${LONGEST_DAY_S}
                      and t.ts < d.day + d.slots * 300)`.execute(trx)
              ).rows
            : [],
      };
    });
    const lateRows = new Map<number, Point>();
    for (const r of late) lateRows.set(Number(r.node_id) * 1e7 + Number(r.ts) / 300, r);
    const values = new Array<number>(cols.length);
    // UTC hours: each node's average over the hour's 5-minute buckets, which may lie in two of its local days.
    const hours = new Map<number, { ts: number; seconds: number; integral: Float64Array; seen: Uint8Array }>();
    /** A node's hour, from its compacted day or its recent rows alike. */
    const hourOf = (node: number, hour: number) => {
      const key = node * 1e7 + hour / 300;
      let acc = hours.get(key);
      if (!acc) {
        acc = { ts: hour, seconds: 0, integral: new Float64Array(cols.length), seen: new Uint8Array(cols.length) };
        hours.set(key, acc);
      }
      return acc;
    };
    for (const d of days) {
      const day = d.day;
      const { slots, columns } = decodeDay(d.parts, want);
      const cov = columns[0];
      if (!cov) continue;
      const picked = cols.map((c) => columns[dayColumnIndex(c)]);
      for (let k = 0; k < slots; k++) {
        const ts = day + k * 300;
        if (ts < start || ts >= end || !(cov[k] > 0)) continue;
        if (step === 300) {
          for (let j = 0; j < picked.length; j++) values[j] = picked[j]?.[k] ?? Number.NaN;
          const r = lateRows.get(d.node_id * 1e7 + ts / 300);
          if (r) {
            // In both places: the day's average and the row's integral over their seconds together,
            // and the row's own average taken back out of the database's sums.
            const seconds = cov[k] + Number(r.cov);
            const own = new Array<number>(cols.length).fill(Number.NaN);
            for (const [j, c] of cols.entries()) {
              if (r[c] === null) continue;
              const integral = Number(r[c]);
              own[j] = -integral / Number(r.cov);
              values[j] = ((Number.isNaN(values[j]) ? 0 : values[j] * cov[k]) + integral) / seconds;
            }
            add(ts, own, -1);
          }
          add(ts, values, 1);
          continue;
        }
        const acc = hourOf(d.node_id, ts - (ts % step));
        acc.seconds += cov[k];
        for (let j = 0; j < picked.length; j++) {
          const v = picked[j]?.[k] ?? Number.NaN;
          if (!Number.isNaN(v)) {
            acc.integral[j] += v * cov[k];
            acc.seen[j] = 1;
          }
        }
      }
    }
    if (step === 300) {
      for (const r of recent)
        add(
          Number(r.ts),
          cols.map((c) => (r[c] === null ? Number.NaN : Number(r[c]))),
          Number(r.nodes),
        );
      continue;
    }
    for (const r of recent) {
      const acc = hourOf(Number(r.node_id), Number(r.hour));
      acc.seconds += Number(r.cov);
      for (const [j, c] of cols.entries()) {
        if (r[c] === null) continue;
        acc.integral[j] += Number(r[c]);
        acc.seen[j] = 1;
      }
    }
    for (const acc of hours.values()) {
      for (let j = 0; j < cols.length; j++) values[j] = acc.seen[j] ? acc.integral[j] / acc.seconds : Number.NaN;
      add(acc.ts, values, 1);
    }
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

/**
 * Several submeters' 5-minute averages of power and reactive power, in (ts, submeter) order: from
 * their compacted days and their recent rows, a bucket in both added up.
 */
export async function submetersSeries(db: Database, submeterIds: readonly number[], start: number, end: number) {
  const out: { submeter_id: number; ts: number; p: number | null; q: number | null }[] = [];
  for (let i = 0; i < submeterIds.length; i += CHUNK) {
    const ids = submeterIds.slice(i, i + CHUNK);
    const sums = new Map<number, { submeter_id: number; ts: number; cov: number; p: number | null; q: number | null }>();
    const add = (id: number, ts: number, cov: number, p: number | null, q: number | null) => {
      const key = id * 1e7 + ts / 300;
      const b = sums.get(key);
      if (!b) return void sums.set(key, { submeter_id: id, ts, cov, p, q });
      b.cov += cov;
      if (p !== null) b.p = (b.p ?? 0) + p;
      if (q !== null) b.q = (b.q ?? 0) + q;
    };
    const { days, recent } = await inSnapshot(db, async (trx) => ({
      days: await trx
        .selectFrom('sub_day')
        .select(['submeter_id', 'day', 'data'])
        .where('submeter_id', 'in', ids)
        .where('day', '>', start - LONGEST_DAY_S)
        .where('day', '<', end)
        .execute(),
      recent: await trx
        .selectFrom('sub_5m')
        .select(['submeter_id', 'ts', 'cov', 'p', 'q'])
        .where('submeter_id', 'in', ids)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .execute(),
    }));
    for (const d of days) {
      const { slots, columns } = decodeSubDay([d]);
      const [cov, p, q] = columns;
      if (!cov) continue;
      for (let k = 0; k < slots; k++) {
        const ts = Number(d.day) + k * 300;
        const seconds = cov[k];
        if (ts < start || ts >= end || !(seconds > 0)) continue;
        const pk = p ? p[k] : Number.NaN;
        const qk = q ? q[k] : Number.NaN;
        add(d.submeter_id, ts, seconds, Number.isNaN(pk) ? null : pk * seconds, Number.isNaN(qk) ? null : qk * seconds);
      }
    }
    for (const r of recent) add(r.submeter_id, Number(r.ts), Number(r.cov), r.p === null ? null : Number(r.p), r.q === null ? null : Number(r.q));
    for (const b of sums.values()) {
      const ok = b.cov > 0;
      out.push({ submeter_id: b.submeter_id, ts: b.ts, p: ok && b.p !== null ? b.p / b.cov : null, q: ok && b.q !== null ? b.q / b.cov : null });
    }
  }
  return out.sort((a, b) => a.ts - b.ts || a.submeter_id - b.submeter_id);
}
