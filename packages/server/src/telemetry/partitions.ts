import { CompiledQuery, sql } from 'kysely';
import { z } from 'zod';
import { type Database, nowS } from '../db/database.ts';
import { defineJob, type Recurring } from '../platform/jobs.ts';
import './tables.ts';

/** Deletes raw samples older than the retention period. */
export async function pruneRaw(db: Database, retentionS: number, now = nowS()) {
  await db
    .deleteFrom('tel_raw')
    .where('ts', '<', now - retentionS)
    .execute();
}

/**
 * On PostgreSQL, monthly partitions of the raw and 5-minute tables covering [from, to). Rows of a
 * month already in the default partition move into the new one.
 */
export async function ensurePartitions(db: Database, from: number, to: number) {
  const d = new Date(from * 1000);
  let m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  while (m / 1000 < to) {
    const next = new Date(m);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const tag = new Date(m).toISOString().slice(0, 7).replace('-', '_');
    const [lo, hi] = [m / 1000, next.getTime() / 1000];
    for (const table of ['tel_raw', 'tel_5m']) {
      const name = `${table}_${tag}`;
      const exists = (q: Database) => sql`select 1 from pg_class where relname = ${name} and relnamespace = current_schema()::regnamespace`.execute(q);
      if ((await exists(db)).rows.length) continue;
      await db.transaction().execute(async (trx) => {
        // Two console processes may make the same month at once (one at its start, the other in its
        // upkeep job): the first holds the lock until it commits, and the second then finds the table.
        await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
        if ((await exists(trx)).rows.length) return;
        // DDL takes no bound parameters: the names and bounds are ours, built from numbers.
        await trx.executeQuery(CompiledQuery.raw(`create table ${name} (like ${table} including defaults)`));
        await trx.executeQuery(CompiledQuery.raw(`insert into ${name} select * from ${table}_default where ts >= ${lo} and ts < ${hi}`));
        await trx.executeQuery(CompiledQuery.raw(`delete from ${table}_default where ts >= ${lo} and ts < ${hi}`));
        await trx.executeQuery(CompiledQuery.raw(`alter table ${table} attach partition ${name} for values from (${lo}) to (${hi})`));
      });
    }
    m = next.getTime();
  }
}

/** Months of partitions kept ready ahead of the clock (PostgreSQL). */
const PARTITIONS_AHEAD_S = 62 * 86400;

/**
 * The store's hourly upkeep, for any fleet (simulated or real devices): the raw readings past their
 * retention deleted, and on PostgreSQL the coming months' partitions made. A recurring job: one run
 * an hour across the console processes.
 */
export const telemetryUpkeepJob = defineJob('telemetry.upkeep', z.object({ at: z.number().int() }), async (ctx, { at }) => {
  await ctx.telemetry.pruneRaw(at);
  await ctx.telemetry.ensurePartitions(at, at + PARTITIONS_AHEAD_S);
});

export const TELEMETRY_UPKEEP_RECURRING: Recurring = { kind: telemetryUpkeepJob.kind, periodS: 3600 };
