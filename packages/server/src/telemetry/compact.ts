import { localMidnight } from '@vpp/shared/time';
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { type Database, nowS } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { defineJob, type Recurring } from '../platform/jobs.ts';
import { DAY_COLUMNS, type Day, type DayPart, decodeDay, decodeSubDay, encodeDay, encodeSubDay, SUB_DAY_COLUMNS } from './codec.ts';
import { METRIC_COLUMNS } from './metrics.ts';
import './tables.ts';

// Compaction: the recent 5-minute rows of local days that have ended are packed into compacted days
// (codec.ts), every hour, by the store's own upkeep job.

/** A 5-minute row as the recent tables hold it: each metric's time integral (value × seconds), energies, cov. */
type HotRow = Record<string, number | null> & { ts: number; cov: number };

/**
 * What is compacted: the nodes' history (tel_5m into tel_day) and the submeters' (sub_5m into
 * sub_day). `names` are the columns in packing order, cov first, then `metrics` time integrals (kept
 * as averages), then energies (kept as they are).
 */
interface HistoryKind {
  hot: 'tel_5m' | 'sub_5m';
  days: 'tel_day' | 'sub_day';
  key: 'node_id' | 'submeter_id';
  names: readonly string[];
  metrics: number;
  encode(slots: number, columns: readonly (Float32Array | null)[]): DayPart[];
  decode(parts: readonly { data: Uint8Array }[]): Day;
  /** The ids of the zone's series with recent rows before `cutoff`. */
  owners(db: Database, zone: string, cutoff: number): Promise<number[]>;
}

const NODE_HISTORY: HistoryKind = {
  hot: 'tel_5m',
  days: 'tel_day',
  key: 'node_id',
  names: DAY_COLUMNS,
  metrics: METRIC_COLUMNS.length,
  encode: encodeDay,
  // Read apart from the cache: the day is about to be written anew.
  decode: (parts) => decodeDay(parts, undefined, false),
  owners: async (db, zone, cutoff) =>
    (
      await db
        .selectFrom('nodes')
        .select('id')
        .where('timezone', '=', zone)
        .where(({ exists, selectFrom }) =>
          exists(selectFrom('tel_5m').select(sql.lit(1).as('one')).whereRef('tel_5m.node_id', '=', 'nodes.id').where('tel_5m.ts', '<', cutoff)),
        )
        .orderBy('id')
        .execute()
    ).map((r) => r.id),
};

const SUBMETER_HISTORY: HistoryKind = {
  hot: 'sub_5m',
  days: 'sub_day',
  key: 'submeter_id',
  names: SUB_DAY_COLUMNS,
  metrics: 2,
  encode: encodeSubDay,
  decode: (parts) => decodeSubDay(parts, false),
  owners: async (db, zone, cutoff) =>
    (
      await db
        .selectFrom('submeters')
        .innerJoin('nodes', 'nodes.id', 'submeters.node_id')
        .select('submeters.id')
        .where('nodes.timezone', '=', zone)
        .where(({ exists, selectFrom }) =>
          exists(selectFrom('sub_5m').select(sql.lit(1).as('one')).whereRef('sub_5m.submeter_id', '=', 'submeters.id').where('sub_5m.ts', '<', cutoff)),
        )
        .orderBy('submeters.id')
        .execute()
    ).map((r) => r.id),
};

/**
 * Adds 5-minute rows (time integrals) into a day (averages): the day's values are made integrals
 * again, the rows added (null + x = x), and the result made averages. `day` starts at local midnight.
 */
function mergeRows(kind: HistoryKind, dayStart: number, day: Day, rows: readonly HotRow[]): Day {
  const { slots } = day;
  const cols = day.columns.map((c) => (c ? Float64Array.from(c) : null));
  const cov = cols[0] ?? new Float64Array(slots).fill(Number.NaN);
  cols[0] = cov;
  // Back to integrals where there are values.
  for (let c = 1; c <= kind.metrics; c++) {
    const col = cols[c];
    if (col) for (let i = 0; i < slots; i++) col[i] = col[i] * cov[i];
  }
  for (const r of rows) {
    const i = (Number(r.ts) - dayStart) / 300;
    if (!(i >= 0 && i < slots && Number.isInteger(i))) throw new Error(`A 5-minute row at ${r.ts} lies outside the day at ${dayStart}`);
    cov[i] = (Number.isNaN(cov[i]) ? 0 : cov[i]) + Number(r.cov);
    for (let c = 1; c < kind.names.length; c++) {
      const v = r[kind.names[c]];
      if (v === null || v === undefined) continue;
      let col = cols[c];
      if (!col) {
        col = new Float64Array(slots).fill(Number.NaN);
        cols[c] = col;
      }
      col[i] = Number.isNaN(col[i]) ? Number(v) : col[i] + Number(v);
    }
  }
  for (let c = 1; c <= kind.metrics; c++) {
    const col = cols[c];
    if (col) for (let i = 0; i < slots; i++) col[i] = cov[i] > 0 ? col[i] / cov[i] : Number.NaN;
  }
  return { slots, columns: cols.map((c) => (c ? Float32Array.from(c) : null)) };
}

/** Recent 5-minute rows kept back from compaction after their local day ends (late readings, folds). */
export const COMPACT_GRACE_S = 3600;
/** Recent rows moved per transaction, about: a batch holds the event loop for a fraction of a second at most. */
const BATCH_ROWS = 12_000;

export interface CompactProgress {
  nodes: number;
  of: number;
  days: number;
}

/**
 * Moves the recent 5-minute rows of local days that have ended (an hour ago: COMPACT_GRACE_S) into
 * compacted days, nodes' and submeters', a batch at a time: each batch reads its series' rows and
 * compacted days, merges them, writes the days and deletes the rows in one transaction, so a read
 * finds every bucket in exactly one of the two places and a kill loses nothing. Runs at start (an
 * existing database upgrades in place) and every hour. Answers the nodes and node-days packed.
 */
export async function compactHistory(db: Database, now = nowS(), onProgress?: (p: CompactProgress) => void): Promise<{ nodes: number; days: number }> {
  const zones = (await db.selectFrom('nodes').select('timezone').distinct().execute()).map((r) => r.timezone);
  const work: { kind: HistoryKind; zone: string; cutoff: number; ids: number[] }[] = [];
  for (const kind of [NODE_HISTORY, SUBMETER_HISTORY]) {
    for (const zone of zones) {
      const cutoff = localMidnight(zone, now - COMPACT_GRACE_S);
      const ids = await kind.owners(db, zone, cutoff);
      if (ids.length) work.push({ kind, zone, cutoff, ids });
    }
  }
  const of = work.reduce((n, w) => n + (w.kind === NODE_HISTORY ? w.ids.length : 0), 0);
  let nodes = 0;
  let days = 0;
  if (of) onProgress?.({ nodes, of, days });
  for (const { kind, zone, cutoff, ids } of work) {
    const oldest = await db
      .selectFrom(kind.hot as 'tel_5m')
      .select((eb) => eb.fn.min('ts').as('ts'))
      .where(kind.key as 'node_id', '=', ids[0])
      .executeTakeFirst();
    // Rows per series, from the first one's backlog: batches of about BATCH_ROWS rows.
    const perId = Math.max(1, Math.ceil((cutoff - Number(oldest?.ts ?? cutoff - 86400)) / 300));
    const size = Math.max(1, Math.min(500, Math.floor(BATCH_ROWS / perId)));
    for (let i = 0; i < ids.length; i += size) {
      const batch = ids.slice(i, i + size);
      const packed = await db.transaction().execute((trx) => compactBatch(trx, kind, zone, batch, cutoff));
      if (kind !== NODE_HISTORY) continue;
      days += packed;
      nodes += batch.length;
      onProgress?.({ nodes, of, days });
    }
  }
  return { nodes, days };
}

async function compactBatch(trx: Transaction<DB>, kind: HistoryKind, zone: string, ids: number[], cutoff: number): Promise<number> {
  // On PostgreSQL, writes of the recent rows wait for the batch (a fraction of a second): a reading
  // added meanwhile to a row being moved, or a row inserted among them, would be deleted unread.
  // (SQLite writes one transaction at a time anyway.)
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`lock table ${sql.table(kind.hot)} in exclusive mode`.execute(trx);
  // The tables differ by name and key only: typed as the nodes' (as read.ts does for its rollups).
  const rows = (await trx
    .selectFrom(kind.hot as 'tel_5m')
    .selectAll()
    .where(kind.key as 'node_id', 'in', ids)
    .where('ts', '<', cutoff)
    .orderBy(kind.key as 'node_id')
    .orderBy('ts')
    .execute()) as unknown as HotRow[];
  if (!rows.length) return 0;
  // Rows by series and local day.
  const groups = new Map<string, { id: number; day: number; rows: HotRow[] }>();
  for (const r of rows) {
    const id = Number(r[kind.key]);
    const day = localMidnight(zone, Number(r.ts));
    const key = `${id}:${day}`;
    const g = groups.get(key);
    if (g) g.rows.push(r);
    else groups.set(key, { id, day, rows: [r] });
  }
  const dayStarts = [...new Set([...groups.values()].map((g) => g.day))];
  const existing = new Map<string, DayPart[]>();
  for (let i = 0; i < dayStarts.length; i += 500) {
    const found = (await trx
      .selectFrom(kind.days as 'tel_day')
      .selectAll()
      .where(kind.key as 'node_id', 'in', ids)
      .where('day', 'in', dayStarts.slice(i, i + 500))
      .execute()) as unknown as (Record<string, number> & { day: number; data: Uint8Array; grp?: number })[];
    for (const f of found) {
      const key = `${f[kind.key]}:${Number(f.day)}`;
      const part = { grp: f.grp ?? 0, data: f.data };
      const parts = existing.get(key);
      if (parts) parts.push(part);
      else existing.set(key, [part]);
    }
  }
  const out: Record<string, unknown>[] = [];
  for (const g of groups.values()) {
    const start = g.day;
    // 26 hours on is inside the next local day, even after a 25-hour day.
    const end = localMidnight(zone, start + 26 * 3600);
    const slots = (end - start) / 300;
    const stored = existing.get(`${g.id}:${start}`);
    const merged = mergeRows(kind, start, stored ? kind.decode(stored) : { slots, columns: new Array(kind.names.length).fill(null) }, g.rows);
    for (const part of kind.encode(slots, merged.columns))
      out.push(
        kind === NODE_HISTORY
          ? { node_id: g.id, day: start, grp: part.grp, slots, data: part.data }
          : { submeter_id: g.id, day: start, slots, data: part.data },
      );
  }
  const keyCols = kind === NODE_HISTORY ? ['node_id', 'day', 'grp'] : ['submeter_id', 'day'];
  for (let i = 0; i < out.length; i += 200) {
    await trx
      .insertInto(kind.days as 'tel_day')
      .values(out.slice(i, i + 200) as never)
      .onConflict((oc) => oc.columns(keyCols as never).doUpdateSet((eb) => ({ slots: eb.ref('excluded.slots'), data: eb.ref('excluded.data') })))
      .execute();
  }
  await trx
    .deleteFrom(kind.hot as 'tel_5m')
    .where(kind.key as 'node_id', 'in', ids)
    .where('ts', '<', cutoff)
    .execute();
  return groups.size;
}

/** How often the compaction's progress is logged while it runs (an upgrade of a large history). */
const PROGRESS_LOG_MS = 10_000;

/**
 * Packs the nodes' 5-minute history of local days that have ended into compacted days (issue 19),
 * every hour; after an upgrade the first run (at start: the worker runs the current hour's run at
 * once) moves the whole existing history, its progress in the log.
 */
export const telemetryCompactJob = defineJob('telemetry.compact', z.object({ at: z.number() }), async (ctx, _payload, run) => {
  let logged = Date.now();
  let begun = false;
  const done = await ctx.telemetry.compact(nowS(), (p) => {
    // The first figure this run hears (a run it joined may be under way already) names the work.
    if (!begun) run.log.info(`Compacting the telemetry history of ${p.of} ${p.of === 1 ? 'node' : 'nodes'}`);
    const first = !begun;
    begun = true;
    if (first || Date.now() - logged < PROGRESS_LOG_MS) return;
    logged = Date.now();
    run.log.info(`Compacting the telemetry history: ${p.nodes} of ${p.of} nodes, ${p.days} node-days packed`);
    void run.progress(p.nodes / p.of).catch(() => undefined);
  });
  if (done.days) run.log.info(`Compacted the telemetry history: ${done.days} node-days of ${done.nodes} ${done.nodes === 1 ? 'node' : 'nodes'}`);
});

export const TELEMETRY_COMPACT_RECURRING: Recurring = { kind: telemetryCompactJob.kind, periodS: 3600 };
