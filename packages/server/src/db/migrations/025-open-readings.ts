import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// The telemetry columns as they were when this migration was written (telemetry/metrics.ts names them
// for the code; a later column needs a migration of its own).
const METRIC_COLUMNS = [
  'meter_p',
  'meter_p_a',
  'meter_p_b',
  'meter_p_c',
  'solar_p',
  'sga_p',
  'battery_p',
  'house_p',
  'voltage',
  'voltage_a',
  'voltage_b',
  'voltage_c',
  'frequency',
  'meter_q',
  'solar_q',
  'current',
  'soc',
  'remaining',
] as const;

const isPg = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Issue 19 (the live report): live readings (shorter than 5 minutes) wait in small time-ordered
 * tables of open readings, keyed (ts, id) so that a report appends, until their 5-minute bucket
 * closes and a fold moves them into the history and the rollups in one transaction. Node readings
 * keep the curtailed solar too (the rollups' curtailed energy); an index by node serves one node's
 * 30-second graph and the fold's node order.
 */
export const openReadings: Migration = {
  async up(db: Kysely<unknown>) {
    let open = db.schema
      .createTable('tel_open')
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('node_id', 'integer', (c) => c.notNull())
      .addColumn('dt', 'real', (c) => c.notNull());
    for (const col of [...METRIC_COLUMNS, 'curtailed_p']) open = open.addColumn(col, 'real');
    open = open.addPrimaryKeyConstraint('tel_open_pk', ['ts', 'node_id'] as never);
    if (!isPg(db)) open = open.modifyEnd(sql`without rowid`);
    await open.execute();
    await db.schema.createIndex('tel_open_node').on('tel_open').columns(['node_id', 'ts']).execute();

    let sub = db.schema
      .createTable('sub_open')
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('submeter_id', 'integer', (c) => c.notNull())
      .addColumn('dt', 'real', (c) => c.notNull())
      .addColumn('p', 'real')
      .addColumn('q', 'real')
      .addPrimaryKeyConstraint('sub_open_pk', ['ts', 'submeter_id'] as never);
    if (!isPg(db)) sub = sub.modifyEnd(sql`without rowid`);
    await sub.execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sub_open').execute();
    await db.schema.dropTable('tel_open').execute();
  },
};
