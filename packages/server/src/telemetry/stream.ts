import { PostgresAdapter, sql, type Transaction } from 'kysely';
import { type Database, timeSlices } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { dayColumnIndex, decodeDay, decodeSubDay, groupsOf, SUB_DAY_COLUMNS } from './codec.ts';
import { ENERGY_COLUMNS, type EnergyColumn, type MetricColumn } from './metrics.ts';
import './tables.ts';

// The one read path of the 5-minute history: every reader of it (graphs, VPP sums, energies, bills,
// exports) consumes the stream of buckets `readBuckets` yields.

/** A node history column: a metric (a time integral in the stream) or an energy (kWh). */
export type HistoryColumn = MetricColumn | EnergyColumn;
/** A submeter history column: power and reactive power (time integrals in the stream). */
export type SubmeterColumn = 'p' | 'q';

/** Whose history: the nodes' (tel_day and tel_5m) or the submeters' (sub_day and sub_5m). */
export type History = { of: 'nodes'; cols: readonly HistoryColumn[] } | { of: 'submeters'; cols: readonly SubmeterColumn[] };

/**
 * One 5-minute bucket of one node (or submeter): its start, the seconds of data in it, each column's
 * value (a metric's time integral, value × seconds; an energy in kWh; NaN for none) in the order asked,
 * and, when the bucket lies in a compacted day, that day's local midnight. `values` is reused from one
 * bucket to the next: read it, do not keep it.
 */
export type BucketVisitor = (id: number, ts: number, cov: number, values: Float64Array, midnight: number | undefined) => void;

/** A day row reaching into [start, …): local days last at most 25 hours. */
export const LONGEST_DAY_S = 25 * 3600;
/** Series per query. */
export const CHUNK = 1000;

const ENERGIES = new Set<string>(ENERGY_COLUMNS);

/**
 * Runs reads of both places of the history (compacted days, recent rows) in one snapshot, so that a
 * compaction committing in between neither hides a bucket nor shows it twice.
 */
function inSnapshot<T>(db: Database, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (pg ? db.transaction().setIsolationLevel('repeatable read') : db.transaction()).execute(read);
}

type RecentRow = Record<string, number | string | null> & { id: number; ts: number; cov: number };
type DayRow = { id: number; day: number; grp: number; data: Uint8Array };

/** One chunk's compacted days reaching into [start, end) (each day's parts in group order) and recent rows in it, by series then time. */
async function readChunk(db: Database, h: History, ids: readonly number[], start: number, end: number) {
  const nodes = h.of === 'nodes';
  const [days, recent, key] = nodes ? (['tel_day', 'tel_5m', 'node_id'] as const) : (['sub_day', 'sub_5m', 'submeter_id'] as const);
  return inSnapshot(db, async (trx) => {
    let dayRows = trx
      .selectFrom(days as 'tel_day')
      .select([sql.ref<number>(key).as('id'), 'day', nodes ? 'grp' : sql.lit(0).as('grp'), 'data'])
      .where(sql.ref(key), 'in', ids)
      .where('day', '>', start - LONGEST_DAY_S)
      .where('day', '<', end);
    if (nodes) dayRows = dayRows.where('grp', 'in', groupsOf(h.cols.length ? h.cols : ['meter_p']));
    return {
      days: (await dayRows.orderBy(sql.ref(key)).orderBy('day').orderBy('grp').execute()) as unknown as DayRow[],
      recent: (await trx
        .selectFrom(recent as 'tel_5m')
        .select([sql.ref<number>(key).as('id'), 'ts', 'cov', ...(h.cols as HistoryColumn[])])
        .where(sql.ref(key), 'in', ids)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .orderBy(sql.ref(key))
        .orderBy('ts')
        .execute()) as unknown as RecentRow[],
    };
  });
}

/**
 * Visits every 5-minute bucket with data of the series `ids` over [start, end), series by series
 * (in id order within each chunk of CHUNK ids) and in time order within a series, each exactly once:
 * from its compacted day, or its recent row, or, for a bucket in both (readings of a compacted day
 * that came late, until the next compaction moves them), the two added up into one. Each chunk is
 * read in one snapshot. A compacted day's slot without data is no bucket; a recent row always is one.
 */
export async function readBuckets(db: Database, h: History, ids: readonly number[], start: number, end: number, visit: BucketVisitor): Promise<void> {
  const cols: readonly string[] = h.cols;
  const width = cols.length;
  // Where each column sits in a compacted day, and whether it is kept as it is (energies) or as an average.
  const index = h.of === 'nodes' ? cols.map(dayColumnIndex) : cols.map((c) => SUB_DAY_COLUMNS.indexOf(c as SubmeterColumn));
  const energy = cols.map((c) => ENERGIES.has(c));
  const want = new Set([0, ...index]);
  const values = new Float64Array(width);
  // The decoding of a chunk's days lets the event loop run every few milliseconds (a long series).
  const pause = timeSlices();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { days, recent } = await readChunk(db, h, ids.slice(i, i + CHUNK), start, end);
    let r = 0;
    const rowValues = (row: RecentRow) => {
      for (let j = 0; j < width; j++) {
        const v = row[cols[j]];
        values[j] = v === null || v === undefined ? Number.NaN : Number(v);
      }
    };
    /** Visits the recent rows before series `id`'s instant `ts` (all rows of earlier series). */
    const rowsBefore = (id: number, ts: number) => {
      while (r < recent.length && (recent[r].id < id || (recent[r].id === id && Number(recent[r].ts) < ts))) {
        const row = recent[r++];
        rowValues(row);
        visit(row.id, Number(row.ts), Number(row.cov), values, undefined);
      }
    };
    for (let d = 0; d < days.length; ) {
      await pause();
      // A day's parts are consecutive rows.
      const { id } = days[d];
      const day = Number(days[d].day);
      let e = d + 1;
      while (e < days.length && days[e].id === id && Number(days[e].day) === day) e++;
      const parts = days.slice(d, e);
      d = e;
      const { slots, columns } = h.of === 'nodes' ? decodeDay(parts, want) : decodeSubDay(parts);
      const cov = columns[0];
      const picked = index.map((c) => columns[c]);
      const from = Math.max(0, Math.ceil((start - day) / 300));
      const to = Math.min(slots, Math.ceil((end - day) / 300));
      for (let k = from; k < to; k++) {
        const ts = day + k * 300;
        rowsBefore(id, ts);
        const seconds = cov ? cov[k] : Number.NaN;
        const inDay = seconds > 0;
        if (inDay)
          for (let j = 0; j < width; j++) {
            const v = picked[j]?.[k] ?? Number.NaN;
            values[j] = energy[j] ? v : v * seconds;
          }
        const row = r < recent.length && recent[r].id === id && Number(recent[r].ts) === ts ? recent[r++] : undefined;
        if (!row) {
          if (inDay) visit(id, ts, seconds, values, day);
          continue;
        }
        if (!inDay) {
          rowValues(row);
          visit(id, ts, Number(row.cov), values, day);
          continue;
        }
        // In both places: the day's part and the row's added up (a value and none make the value).
        for (let j = 0; j < width; j++) {
          const v = row[cols[j]];
          if (v === null || v === undefined) continue;
          values[j] = Number.isNaN(values[j]) ? Number(v) : values[j] + Number(v);
        }
        visit(id, ts, seconds + Number(row.cov), values, day);
      }
    }
    rowsBefore(Number.POSITIVE_INFINITY, 0);
  }
}
