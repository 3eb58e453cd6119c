import { CompiledQuery, type Transaction } from 'kysely';
import { z } from 'zod';
import { arrayReader, type Database, type DialectName } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { defineJob, type Recurring } from '../platform/jobs.ts';
import { METRIC_COLUMNS } from './metrics.ts';
import type { SubmeterSample } from './rows.ts';
import './tables.ts';

/** The columns of an open node reading, in the order the report writes them and the fold reads them. */
export const OPEN_COLUMNS = ['node_id', 'ts', 'dt', ...METRIC_COLUMNS, 'curtailed_p'] as const;

const CHUNK_SQL = `select ${OPEN_COLUMNS.join(', ')} from tel_open where node_id >= ? and node_id < ? and ts < ? order by node_id, ts`;
const pgText = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/** The lowest node id from `from` on with open readings before `before`, or null when there is none. */
export async function nextOpenNode(db: Database, before: number, from: number): Promise<number | null> {
  const r = await db
    .selectFrom('tel_open')
    .select(({ fn }) => fn.min('node_id').as('lo'))
    .where('node_id', '>=', from)
    .where('ts', '<', before)
    .executeTakeFirst();
  return r?.lo == null ? null : Number(r.lo);
}

/**
 * The open readings before `before` of the nodes [lo, hi), in (node, ts) order (the node index of
 * the open table), each row laid out as OPEN_COLUMNS (null where absent). SQLite answers arrays
 * straight from the connection the transaction holds; PostgreSQL reads through the transaction.
 */
export async function openReadings(db: Database, dialect: DialectName, trx: Transaction<DB>, before: number, lo: number, hi: number): Promise<unknown[][]> {
  const params = [lo, hi, before];
  if (dialect === 'sqlite') return arrayReader(db)(CHUNK_SQL, params);
  const rows = (await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(pgText(CHUNK_SQL), params))).rows;
  return rows.map((r) => OPEN_COLUMNS.map((c) => r[c]));
}

/** The open submeter readings before `before`. */
export async function openSubmeterReadings(trx: Transaction<DB>, before: number): Promise<SubmeterSample[]> {
  const rows = await trx.selectFrom('sub_open').select(['submeter_id', 'ts', 'dt', 'p', 'q']).where('ts', '<', before).execute();
  return rows.map((r) => ({ submeterId: r.submeter_id, ts: Number(r.ts), dt: r.dt, p: r.p ?? Number.NaN, q: r.q ?? Number.NaN }));
}

/** Removes the open readings of the nodes [lo, hi) before `before`: the fold has added them to the history. */
export async function closeOpenReadings(trx: Transaction<DB>, before: number, lo: number, hi: number) {
  await trx.deleteFrom('tel_open').where('node_id', '>=', lo).where('node_id', '<', hi).where('ts', '<', before).execute();
}

/** Removes the open submeter readings before `before`. */
export async function closeOpenSubmeterReadings(trx: Transaction<DB>, before: number) {
  await trx.deleteFrom('sub_open').where('ts', '<', before).execute();
}

/**
 * The fold of each closed 5-minute bucket, as a recurring job of the durable job table: one run per
 * bucket across every console process on the database (the run's unique key), held by a lease that
 * its worker renews while it folds. A worker killed during a fold leaves its run pending with a
 * lease that runs out (JOB_LEASE_S), and another process's worker takes it over and folds what is
 * still open (a fold's ranges are each all folded or all open). Folds everything open before the
 * bucket's end, so a run missed while every process was down is made up by the next.
 */
export const telemetryFoldJob = defineJob('telemetry.fold', z.object({ at: z.number().int() }), async (ctx, { at }, run) => {
  const folded = await ctx.telemetry.fold(at);
  if (folded) run.log.info({ at, folded }, `Folded ${folded} open readings before ${new Date(at * 1000).toISOString()}`);
});

export const TELEMETRY_FOLD_RECURRING: Recurring = { kind: telemetryFoldJob.kind, periodS: 300 };
