import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { localMidnight } from '@vpp/shared';
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import { type Database, nowS } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { ENERGY_COLUMNS, METRIC_COLUMNS } from './metrics.ts';
import './tables.ts';

/**
 * The columns of a compacted day, in the order of its presence mask: the seconds covered, each
 * metric's average over its bucket, each energy (kWh). Columns are only ever added at the end.
 */
export const DAY_COLUMNS = ['cov', ...METRIC_COLUMNS, ...ENERGY_COLUMNS] as const;
export type DayColumn = (typeof DAY_COLUMNS)[number];
const COLUMN_INDEX = new Map<string, number>(DAY_COLUMNS.map((c, i) => [c, i]));
export const dayColumnIndex = (c: string) => COLUMN_INDEX.get(c) as number;

/**
 * The column groups of a compacted day, each stored as a row of its own: the powers, charge and
 * energies that graphs, VPP sums and bills read, and the grid's detail (phases, voltages, frequency,
 * reactive power), read only when asked for. Each group holds the seconds covered too.
 */
export const DAY_GROUPS: readonly (readonly DayColumn[])[] = [
  ['meter_p', 'solar_p', 'battery_p', 'house_p', 'soc', 'remaining', 'import_e', 'export_e', 'solar_e', 'house_e', 'curtailed_e'],
  ['meter_p_a', 'meter_p_b', 'meter_p_c', 'sga_p', 'voltage', 'voltage_a', 'voltage_b', 'voltage_c', 'frequency', 'meter_q', 'solar_q', 'current'],
];
const GROUP_OF = new Map<string, number>(DAY_GROUPS.flatMap((g, k) => g.map((c) => [c, k] as const)));
/** The groups to read for these columns: the first always (the detail's predictions come from it, see PREDICTORS). */
export const groupsOf = (cols: readonly string[]) => [...new Set([0, ...cols.map((c) => GROUP_OF.get(c) as number)])].sort();

/**
 * Columns stored as the difference (the XOR of their float32 bits) from a prediction made of an
 * earlier column, which is nearly always exact: the first phase of a single-phase meter is the meter,
 * the first phase's voltage the voltage, the solar generation meter the solar power; an energy is its
 * power's positive (or negative) part over the seconds covered, unless the power changed sign within
 * the bucket. Where the prediction holds the stored bits are zeros, which cost next to nothing. A
 * prediction's source always comes earlier in DAY_COLUMNS and in group 0 or the column's own group.
 */
const PREDICTORS: Partial<Record<DayColumn, { from: DayColumn; energy?: 1 | -1 }>> = {
  meter_p_a: { from: 'meter_p' },
  sga_p: { from: 'solar_p' },
  voltage_a: { from: 'voltage' },
  import_e: { from: 'meter_p', energy: 1 },
  export_e: { from: 'meter_p', energy: -1 },
  solar_e: { from: 'solar_p', energy: 1 },
  house_e: { from: 'house_p', energy: 1 },
};
const SOURCES = new Map<number, number>(Object.entries(PREDICTORS).map(([c, p]) => [dayColumnIndex(c), dayColumnIndex(p.from)]));

/** The predicted bits of column `c` from the day's other columns (float32), or null when its source has no values. */
function prediction(c: number, columns: readonly (Float32Array | null)[], slots: number): Uint32Array | null {
  const p = PREDICTORS[DAY_COLUMNS[c]];
  const src = p ? columns[dayColumnIndex(p.from)] : null;
  if (!p || !src) return null;
  if (!p.energy) return new Uint32Array(src.buffer, src.byteOffset, slots);
  const cov = columns[0] as Float32Array;
  const out = new Float32Array(slots);
  for (let i = 0; i < slots; i++) out[i] = (Math.max(0, p.energy * src[i]) * cov[i]) / 3600;
  return new Uint32Array(out.buffer);
}

const VERSION = 1;
const HEADER = 12;

/** One stored group of a compacted day. */
export interface DayPart {
  grp: number;
  data: Uint8Array;
}

/**
 * A part of a packed day: a header (version, group, slot count, a mask of the columns present and one
 * of those stored against their prediction), then the columns as float32 bits (NaN where there is no
 * value), shuffled into byte planes (the sign and exponent bytes of the values sit together and
 * compress well) and compressed with zstd. `indexes` are the columns of the part (bits of the masks).
 */
function packPart(
  grp: number,
  slots: number,
  columns: readonly (Float32Array | null)[],
  indexes: readonly number[],
  predict: (c: number) => Uint32Array | null,
): DayPart {
  let mask = 0;
  let predicted = 0;
  const present: Uint32Array[] = [];
  for (const c of indexes) {
    const col = columns[c];
    if (!col) continue;
    mask |= 1 << c;
    const bits = new Uint32Array(col.buffer, col.byteOffset, slots);
    const guess = predict(c);
    if (!guess) {
      present.push(bits);
      continue;
    }
    predicted |= 1 << c;
    const diff = new Uint32Array(slots);
    for (let i = 0; i < slots; i++) diff[i] = bits[i] ^ guess[i];
    present.push(diff);
  }
  const n = present.length * slots;
  const bytes = new Uint8Array(n * 4);
  let at = 0;
  for (const col of present) {
    const src = new Uint8Array(col.buffer, col.byteOffset, slots * 4);
    for (let i = 0; i < slots; i++, at++) {
      bytes[at] = src[i * 4];
      bytes[n + at] = src[i * 4 + 1];
      bytes[2 * n + at] = src[i * 4 + 2];
      bytes[3 * n + at] = src[i * 4 + 3];
    }
  }
  // The frame ends with a checksum of its content: a reader's cache tells a rewritten day by it.
  const packed = zstdCompressSync(bytes, { params: { [constants.ZSTD_c_checksumFlag]: 1 } });
  const data = Buffer.allocUnsafe(HEADER + packed.length);
  data.writeUInt8(VERSION, 0);
  data.writeUInt8(grp, 1);
  data.writeUInt16LE(slots, 2);
  data.writeUInt32LE(mask >>> 0, 4);
  data.writeUInt32LE(predicted >>> 0, 8);
  packed.copy(data, HEADER);
  return { grp, data };
}

/** The columns of a day without any value as null: they are not stored, nor predict another. */
function withValues(slots: number, given: readonly (Float32Array | null)[]) {
  return given.map((col) => {
    if (!col) return null;
    if (col.length !== slots) throw new Error(`A day column holds ${col.length} values for ${slots} slots`);
    for (let i = 0; i < slots; i++) if (!Number.isNaN(col[i])) return col;
    return null;
  });
}

/** One node's local day of 5-minute history, packed into one part per column group (packPart). About 30 bytes per 5-minute node-sample, against 200 as rows. */
export function encodeDay(slots: number, given: readonly (Float32Array | null)[]): DayPart[] {
  const columns = withValues(slots, given);
  return DAY_GROUPS.map((group, grp) => packPart(grp, slots, columns, [0, ...group.map(dayColumnIndex)], (c) => prediction(c, columns, slots)));
}

/** A compacted day unpacked: its slot count and each column's values (null: not asked for, or none). */
export interface Day {
  slots: number;
  columns: (Float32Array | null)[];
}

/** Unpacked parts kept for reads that come back to the same days (an export's pages, a graph refreshed), at most this many bytes. */
const UNPACKED_CACHE_BYTES = 48 * 2 ** 20;
const unpackedCache = new Map<string, { data: Buffer; bytes: Buffer }>();
let unpackedCacheBytes = 0;

/**
 * A part's decompressed bytes, from the cache when the very same packed bytes were unpacked lately
 * (compared in full: a part rewritten by a compaction is never taken for its old self).
 */
function unpacked(buf: Buffer): Buffer {
  let h = buf.length;
  for (let i = 0; i < buf.length; i += 61) h = (Math.imul(h, 31) + buf[i]) | 0;
  const key = `${buf.length}:${h}`;
  const hit = unpackedCache.get(key);
  if (hit?.data.equals(buf)) {
    unpackedCache.delete(key);
    unpackedCache.set(key, hit);
    return hit.bytes;
  }
  const bytes = zstdDecompressSync(buf.subarray(HEADER));
  if (hit) {
    unpackedCache.delete(key);
    unpackedCacheBytes -= hit.bytes.length + hit.data.length;
  }
  unpackedCache.set(key, { data: Buffer.from(buf), bytes });
  unpackedCacheBytes += bytes.length + buf.length;
  for (const [k, v] of unpackedCache) {
    if (unpackedCacheBytes <= UNPACKED_CACHE_BYTES) break;
    unpackedCache.delete(k);
    unpackedCacheBytes -= v.bytes.length + v.data.length;
  }
  return bytes;
}

/** Unpacks parts into `columns` (those `needed` holds, or all), the parts in group order. Answers the slot count. */
function unpackParts(
  parts: readonly { data: Uint8Array }[],
  columns: (Float32Array | null)[],
  needed: ReadonlySet<number> | null,
  predict: (c: number, slots: number) => Uint32Array | null,
): number {
  const buffers = parts.map((p) => (Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength)));
  let slots = 0;
  for (const buf of buffers.sort((a, b) => a.readUInt8(1) - b.readUInt8(1))) {
    if (buf.readUInt8(0) !== VERSION) throw new Error(`Unknown compacted day version ${buf.readUInt8(0)}`);
    slots = buf.readUInt16LE(2);
    const mask = buf.readUInt32LE(4);
    const predicted = buf.readUInt32LE(8);
    const bytes = unpacked(buf);
    let count = 0;
    for (let c = 0; c < 32; c++) if (mask & (1 << c)) count++;
    const n = count * slots;
    if (bytes.length !== n * 4) throw new Error('A compacted day is damaged');
    let at = 0;
    for (let c = 0; c < 32; c++) {
      if (!(mask & (1 << c))) continue;
      if ((!needed || needed.has(c)) && !columns[c]) {
        const col = new Float32Array(slots);
        const dst = new Uint8Array(col.buffer);
        for (let i = 0; i < slots; i++) {
          const k = at + i;
          dst[i * 4] = bytes[k];
          dst[i * 4 + 1] = bytes[n + k];
          dst[i * 4 + 2] = bytes[2 * n + k];
          dst[i * 4 + 3] = bytes[3 * n + k];
        }
        if (predicted & (1 << c)) {
          const guess = predict(c, slots);
          if (!guess) throw new Error(`A compacted day lacks what column ${c} is predicted from`);
          const bits = new Uint32Array(col.buffer);
          for (let i = 0; i < slots; i++) bits[i] ^= guess[i];
        }
        columns[c] = col;
      }
      at += slots;
    }
  }
  return slots;
}

/**
 * Unpacks the stored parts of a node's day (group 0 among them when another group's predictions need
 * it): every column in them, or those whose indexes `want` holds, with cov (index 0) and what their
 * predictions are made of.
 */
export function decodeDay(parts: readonly { data: Uint8Array }[], want?: ReadonlySet<number>): Day {
  const columns: (Float32Array | null)[] = new Array(DAY_COLUMNS.length).fill(null);
  let needed: Set<number> | null = null;
  if (want) {
    needed = new Set([0, ...want]);
    for (const c of want) {
      const src = SOURCES.get(c);
      if (src !== undefined) needed.add(src);
    }
  }
  const slots = unpackParts(parts, columns, needed, (c, n) => prediction(c, columns, n));
  return { slots, columns };
}

/** The columns of a submeter's compacted day: the seconds covered, power and reactive power averages. */
export const SUB_DAY_COLUMNS = ['cov', 'p', 'q'] as const;

/** A submeter's local day of 5-minute history, packed as one part. */
export function encodeSubDay(slots: number, given: readonly (Float32Array | null)[]): DayPart[] {
  return [packPart(0, slots, withValues(slots, given), [0, 1, 2], () => null)];
}

export function decodeSubDay(parts: readonly { data: Uint8Array }[]): Day {
  const columns: (Float32Array | null)[] = [null, null, null];
  return { slots: unpackParts(parts, columns, null, () => null), columns };
}

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
  decode: (parts) => decodeDay(parts),
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
  decode: decodeSubDay,
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
