import { CompiledQuery, type Transaction } from 'kysely';
import { copyIn, type Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';

export type UpsertMode = 'ignore' | 'add' | 'latest';

/**
 * What an upsert does with a row already there: raw readings are kept as first stored, rollups add
 * the new sums to theirs (null + x = x), the latest values are replaced by newer ones only.
 */
export function conflictSql(table: string, cols: readonly string[], mode: UpsertMode): string {
  const key = cols.slice(0, 2);
  const rest = cols.slice(2);
  if (mode === 'ignore') return `on conflict (${key.join(',')}) do nothing`;
  if (mode === 'latest')
    return `on conflict (node_id) do update set ${['ts', ...rest].map((c) => `${c} = excluded.${c}`).join(', ')} where excluded.ts >= ${table}.ts`;
  return `on conflict (${key.join(',')}) do update set ${rest.map((c) => `${c} = coalesce(${table}.${c} + excluded.${c}, ${table}.${c}, excluded.${c})`).join(', ')}`;
}

const UNIQUE_VIOLATION = '23505';

/** How a column is sent: the same types as the tables' (node and organisation ids, epoch seconds, readings). */
type Kind = 'int4' | 'int8' | 'float4';

// The key's id is an integer, ts epoch seconds, every other column a real, as in every telemetry table.
const kindOf = (col: string, i: number): Kind => (i === 0 ? 'int4' : col === 'ts' ? 'int8' : 'float4');
const SQL_TYPE: Record<Kind, string> = { int4: 'integer', int8: 'bigint', float4: 'real' };
const SIZE: Record<Kind, number> = { int4: 4, int8: 8, float4: 4 };

// PostgreSQL's binary COPY: a signature, flags and header extension length (both 0), then per row a
// 16-bit field count and per field a 32-bit length (-1 for null) and the value in network order,
// then a count of -1.
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);
const CHUNK_BYTES = 1 << 20;

/** Rows laid end to end (NaN for null) in binary COPY format, in chunks of about a mebibyte. */
function* binaryCopy(flat: readonly number[], kinds: readonly Kind[]): Generator<Buffer> {
  const width = kinds.length;
  let rowBytes = 2;
  for (const k of kinds) rowBytes += 4 + SIZE[k];
  const rowsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / rowBytes));
  const rows = flat.length / width;
  yield HEADER;
  for (let r0 = 0; r0 < rows; r0 += rowsPerChunk) {
    const r1 = Math.min(rows, r0 + rowsPerChunk);
    const buf = Buffer.allocUnsafe((r1 - r0) * rowBytes);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let o = 0;
    for (let r = r0; r < r1; r++) {
      view.setInt16(o, width);
      o += 2;
      const at = r * width;
      for (let c = 0; c < width; c++) {
        const v = flat[at + c];
        if (Number.isNaN(v)) {
          view.setInt32(o, -1);
          o += 4;
          continue;
        }
        const kind = kinds[c];
        if (kind === 'float4') {
          view.setInt32(o, 4);
          view.setFloat32(o + 4, v);
          o += 8;
        } else if (kind === 'int4') {
          view.setInt32(o, 4);
          view.setInt32(o + 4, v);
          o += 8;
        } else {
          view.setInt32(o, 8);
          view.setInt32(o + 4, Math.floor(v / 4294967296));
          view.setUint32(o + 8, v >>> 0);
          o += 12;
        }
      }
    }
    yield buf.subarray(0, o);
  }
  yield TRAILER;
}

interface Staging {
  name: string;
  kinds: Kind[];
  create: string;
  /** Into the staging table. */
  copy: string;
  /** Straight into the table. */
  direct: string;
}

const stagings = new Map<string, Staging>();

/** The temporary table rows of `table` are copied into first, one per table and column list (and connection). */
function stagingOf(table: string, cols: readonly string[]): Staging {
  const key = `${table}(${cols.join(',')})`;
  let s = stagings.get(key);
  if (!s) {
    const name = `stage_${stagings.size}_${table}`;
    const kinds = cols.map(kindOf);
    s = {
      name,
      kinds,
      create: `create temp table if not exists ${name} (${cols.map((c, i) => `${c} ${SQL_TYPE[kinds[i]]}`).join(', ')})`,
      copy: `copy ${name} (${cols.join(',')}) from stdin (format binary)`,
      direct: `copy ${table} (${cols.join(',')}) from stdin (format binary)`,
    };
    stagings.set(key, s);
  }
  return s;
}

const upserts = new Map<string, string>();

/** Rows whose keys the check before a plain copy looks up: the first, the last and some between. */
const PROBES = 16;

/**
 * Whether any of a few of the rows' keys (see PROBES) is already in `table`. None means the rows
 * are most likely all new (a backfill, or a new bucket), so that a plain copy is worth trying; the
 * copy itself finds any key that is there all the same. Exact keys, so the primary key answers.
 */
async function anyStored(t: Transaction<DB>, table: string, cols: readonly string[], flat: readonly number[]): Promise<boolean> {
  const width = cols.length;
  const rows = flat.length / width;
  const picks = new Set<number>();
  for (let i = 0; i < PROBES; i++) picks.add(Math.round((i * (rows - 1)) / (PROBES - 1)));
  const params: number[] = [];
  const terms: string[] = [];
  for (const r of picks) {
    params.push(flat[r * width], flat[r * width + 1]);
    terms.push(`(${cols[0]} = $${params.length - 1} and ${cols[1]} = $${params.length})`);
  }
  const found = await t.executeQuery(CompiledQuery.raw(`select 1 from ${table} where ${terms.join(' or ')} limit 1`, params));
  return found.rows.length > 0;
}

/**
 * Upserts rows laid end to end (NaN for null) into `table` on PostgreSQL, as `mode` says (see
 * conflictSql), in the caller's transaction (one of its own when given the database). Rows that
 * look new, as a backfill's are, are copied straight into the table, which costs half of an upsert;
 * should one be there after all, the copy is undone and the rows take the general path: binary COPY
 * into a per-connection staging table, then one insert … select … on conflict.
 */
export async function pgUpsert(
  trx: Database | Transaction<DB>,
  table: string,
  cols: readonly string[],
  flat: readonly number[],
  mode: UpsertMode,
): Promise<void> {
  if (!flat.length) return;
  if (!trx.isTransaction) {
    await trx.transaction().execute((t) => pgUpsert(t, table, cols, flat, mode));
    return;
  }
  const t = trx as Transaction<DB>;
  const staging = stagingOf(table, cols);
  // The latest values are keyed by node alone and nearly always there.
  if (mode !== 'latest' && !(await anyStored(t, table, cols, flat))) {
    await t.executeQuery(CompiledQuery.raw('savepoint pg_upsert'));
    try {
      await copyIn(t, staging.direct, binaryCopy(flat, staging.kinds));
      await t.executeQuery(CompiledQuery.raw('release savepoint pg_upsert'));
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== UNIQUE_VIOLATION) throw e;
      await t.executeQuery(CompiledQuery.raw('rollback to savepoint pg_upsert'));
    }
  }
  // The staging table is left empty by every write: nothing of one write is moved twice, whichever
  // transaction or savepoint comes next on the connection.
  await t.executeQuery(CompiledQuery.raw(staging.create));
  await copyIn(t, staging.copy, binaryCopy(flat, staging.kinds));
  const key = `${staging.name}|${mode}`;
  let insert = upserts.get(key);
  if (!insert) {
    const cs = cols.join(',');
    insert = `insert into ${table} (${cs}) select ${cs} from ${staging.name} ${conflictSql(table, cols, mode)}; truncate ${staging.name}`;
    if (upserts.size > 200) upserts.clear();
    upserts.set(key, insert);
  }
  await t.executeQuery(CompiledQuery.raw(insert));
}
