import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { ENERGY_COLUMNS, METRIC_COLUMNS } from './metrics.ts';

// The codec of a compacted day (format VERSION): a node's (or a submeter's) local day of 5-minute
// buckets as float32 columns, shuffled into byte planes and compressed with zstd, one part per column
// group; and the one cache of unpacked parts that every read shares.

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

/**
 * The one cache of the reads: each part's columns as they were unpacked, kept for reads that come back
 * to the same days (an export's pages, a graph refreshed, a VPP's sums after its members' graphs), at
 * most this many bytes, the least recently used let go first.
 */
const CACHE_BYTES = 96 * 2 ** 20;
interface Unpacked {
  /** The packed part, to know it again. */
  data: Buffer;
  /** Its columns unpacked so far, by index. */
  columns: (Float32Array | undefined)[];
  bytes: number;
}
const cache = new Map<string, Unpacked>();
let cacheBytes = 0;

function trimCache() {
  // Looked at only when over: a Map's iteration steps over the slots its deletions left (every hit
  // moves its entry to the end), thousands of them before the first entry in a cache that turns over.
  // Once over, it is trimmed to 7/8 of its size, so that this happens once per several thousand parts.
  if (cacheBytes <= CACHE_BYTES) return;
  for (const [k, v] of cache) {
    if (cacheBytes <= (CACHE_BYTES * 7) / 8) break;
    cache.delete(k);
    cacheBytes -= v.bytes;
  }
}

/**
 * The cache's entry of a part: the one made when the very same packed bytes were last read (compared
 * in full: a part rewritten by a compaction is never taken for its old self), or a new one.
 */
function cached(buf: Buffer): Unpacked {
  let h = buf.length;
  for (let i = 0; i < buf.length; i += 61) h = (Math.imul(h, 31) + buf[i]) | 0;
  const key = `${buf.length}:${h}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    if (hit.data.equals(buf)) {
      cache.set(key, hit);
      return hit;
    }
    cacheBytes -= hit.bytes;
  }
  const entry: Unpacked = { data: Buffer.from(buf), columns: [], bytes: buf.length };
  cache.set(key, entry);
  cacheBytes += entry.bytes;
  trimCache();
  return entry;
}

/**
 * Unpacks parts into `columns` (those `needed` holds, or all), the parts in group order, through the
 * cache when `useCache`. Answers the slot count. Columns from the cache are shared: read, never written.
 */
function unpackParts(
  parts: readonly { data: Uint8Array }[],
  columns: (Float32Array | null)[],
  needed: ReadonlySet<number> | null,
  predict: (c: number, slots: number) => Uint32Array | null,
  useCache: boolean,
): number {
  const buffers = parts.map((p) => (Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength)));
  let slots = 0;
  for (const buf of buffers.sort((a, b) => a.readUInt8(1) - b.readUInt8(1))) {
    if (buf.readUInt8(0) !== VERSION) throw new Error(`Unknown compacted day version ${buf.readUInt8(0)}`);
    slots = buf.readUInt16LE(2);
    const mask = buf.readUInt32LE(4);
    const predicted = buf.readUInt32LE(8);
    const entry = useCache ? cached(buf) : null;
    let count = 0;
    for (let c = 0; c < 32; c++) if (mask & (1 << c)) count++;
    const n = count * slots;
    // Decompressed only when a column asked for is not in the cache.
    let bytes: Buffer | null = null;
    let at = 0;
    for (let c = 0; c < 32; c++) {
      if (!(mask & (1 << c))) continue;
      if ((!needed || needed.has(c)) && !columns[c]) {
        let col = entry?.columns[c];
        if (!col) {
          if (!bytes) {
            bytes = zstdDecompressSync(buf.subarray(HEADER));
            if (bytes.length !== n * 4) throw new Error('A compacted day is damaged');
          }
          col = new Float32Array(slots);
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
          if (entry) {
            entry.columns[c] = col;
            entry.bytes += col.byteLength;
            cacheBytes += col.byteLength;
          }
        }
        columns[c] = col;
      }
      at += slots;
    }
  }
  if (useCache) trimCache();
  return slots;
}

/**
 * Unpacks the stored parts of a node's day (group 0 among them when another group's predictions need
 * it): every column in them, or those whose indexes `want` holds, with cov (index 0) and what their
 * predictions are made of.
 */
export function decodeDay(parts: readonly { data: Uint8Array }[], want?: ReadonlySet<number>, useCache = true): Day {
  const columns: (Float32Array | null)[] = new Array(DAY_COLUMNS.length).fill(null);
  let needed: Set<number> | null = null;
  if (want) {
    needed = new Set([0, ...want]);
    for (const c of want) {
      const src = SOURCES.get(c);
      if (src !== undefined) needed.add(src);
    }
  }
  const slots = unpackParts(parts, columns, needed, (c, n) => prediction(c, columns, n), useCache);
  return { slots, columns };
}

/** The columns of a submeter's compacted day: the seconds covered, power and reactive power averages. */
export const SUB_DAY_COLUMNS = ['cov', 'p', 'q'] as const;

/** A submeter's local day of 5-minute history, packed as one part. */
export function encodeSubDay(slots: number, given: readonly (Float32Array | null)[]): DayPart[] {
  return [packPart(0, slots, withValues(slots, given), [0, 1, 2], () => null)];
}

export function decodeSubDay(parts: readonly { data: Uint8Array }[], useCache = true): Day {
  const columns: (Float32Array | null)[] = [null, null, null];
  return { slots: unpackParts(parts, columns, null, () => null, useCache), columns };
}
