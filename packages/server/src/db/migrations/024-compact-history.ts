import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Issue 19 (telemetry at a year's scale): closed local days of a node's 5-minute history are kept
 * compacted, a row per node, day and column group holding the day's buckets of its columns as packed float32
 * (telemetry/compact.ts); tel_5m keeps only the recent rows until their day is compacted. The
 * hourly and daily rollups are no longer stored: they are added up from the 5-minute history, which
 * holds everything they did. Submeters' days (sub_5m) are compacted the same way into sub_day. Existing rows are compacted at start, in the background (see main.ts).
 */
export const compactHistory: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('tel_day')
      .addColumn('node_id', 'integer', (c) => c.notNull())
      // The node's local midnight (epoch s) and its 5-minute buckets (276, 288 or 300).
      .addColumn('day', 'bigint', (c) => c.notNull())
      // The column group (powers, energies, the grid's detail): each stored and read on its own.
      .addColumn('grp', 'integer', (c) => c.notNull())
      .addColumn('slots', 'integer', (c) => c.notNull())
      .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('tel_day_pk', ['node_id', 'day', 'grp'] as never)
      .execute();
    // A submeter's day: power and reactive power.
    await db.schema
      .createTable('sub_day')
      .addColumn('submeter_id', 'integer', (c) => c.notNull())
      .addColumn('day', 'bigint', (c) => c.notNull())
      .addColumn('slots', 'integer', (c) => c.notNull())
      .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('sub_day_pk', ['submeter_id', 'day'] as never)
      .execute();
    // Already compressed: PostgreSQL stores it out of line as it is, without compressing it again.
    if (pg) for (const t of ['tel_day', 'sub_day']) await sql`alter table ${sql.table(t)} alter column data set storage external`.execute(db);
    await db.schema.dropTable('tel_1h').execute();
    await db.schema.dropTable('tel_1d').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sub_day').execute();
    await db.schema.dropTable('tel_day').execute();
  },
};
