import { CompiledQuery, type Transaction } from 'kysely';
import { arrayReader, type Database, type DialectName } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { METRIC_COLUMNS } from '../metrics.ts';
import type { SubmeterSample } from './rows.ts';
import './tables.ts';

/** Node ids per read of the open readings: a few tens of thousands of readings at a time. */
const NODES_PER_READ = 4000;

/** The columns of an open node reading, in the order the report writes them and the fold reads them. */
export const OPEN_COLUMNS = ['node_id', 'ts', 'dt', ...METRIC_COLUMNS, 'curtailed_p'] as const;

const CHUNK_SQL = `select ${OPEN_COLUMNS.join(', ')} from tel_open where node_id >= ? and node_id < ? and ts < ? order by node_id, ts`;
const pgText = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/**
 * The open node readings before `before`, in (node, ts) order, a range of node ids at a time (the
 * node index of the open table), each row laid out as OPEN_COLUMNS (null where absent). SQLite
 * answers arrays straight from the connection the transaction holds; PostgreSQL reads through the
 * transaction.
 */
export async function* openReadings(db: Database, dialect: DialectName, trx: Transaction<DB>, before: number): AsyncGenerator<unknown[][]> {
  const range = await trx
    .selectFrom('tel_open')
    .select(({ fn }) => [fn.min('node_id').as('lo'), fn.max('node_id').as('hi')])
    .where('ts', '<', before)
    .executeTakeFirst();
  if (range?.lo == null || range.hi == null) return;
  const read = dialect === 'sqlite' ? arrayReader(db) : null;
  const text = dialect === 'sqlite' ? CHUNK_SQL : pgText(CHUNK_SQL);
  for (let lo = Number(range.lo); lo <= Number(range.hi); lo += NODES_PER_READ) {
    const params = [lo, lo + NODES_PER_READ, before];
    const rows = read
      ? await read(text, params)
      : (await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params))).rows.map((r) => OPEN_COLUMNS.map((c) => r[c]));
    if (rows.length) yield rows;
  }
}

/** The open submeter readings before `before`. */
export async function openSubmeterReadings(trx: Transaction<DB>, before: number): Promise<SubmeterSample[]> {
  const rows = await trx.selectFrom('sub_open').select(['submeter_id', 'ts', 'dt', 'p', 'q']).where('ts', '<', before).execute();
  return rows.map((r) => ({ submeterId: r.submeter_id, ts: Number(r.ts), dt: r.dt, p: r.p ?? Number.NaN, q: r.q ?? Number.NaN }));
}

/** Removes the open readings before `before`: the fold has added them to the history. */
export async function closeOpenReadings(trx: Transaction<DB>, before: number) {
  await trx.deleteFrom('tel_open').where('ts', '<', before).execute();
  await trx.deleteFrom('sub_open').where('ts', '<', before).execute();
}
