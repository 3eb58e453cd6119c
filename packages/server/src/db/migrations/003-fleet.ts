import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { withId } from './helpers.ts';

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
const ENERGY_COLUMNS = ['import_e', 'export_e', 'solar_e', 'house_e'] as const;
const FLEET_COLUMNS = ['meter_p', 'solar_p', 'battery_p', 'house_p', 'remaining'] as const;

const isPg = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A telemetry table keyed by (key column, ts); partitioned by time on PostgreSQL, clustered by key on SQLite. */
async function telemetryTable(db: Kysely<unknown>, name: string, key: string, columns: readonly string[], opts: { rollup: boolean; partitioned: boolean }) {
  let t = db.schema
    .createTable(name)
    .addColumn(key, 'integer', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull());
  if (opts.rollup) t = t.addColumn('cov', 'real', (c) => c.notNull());
  else t = t.addColumn('dt', 'real', (c) => c.notNull());
  for (const col of columns) t = t.addColumn(col, 'real');
  t = t.addPrimaryKeyConstraint(`${name}_pk`, [key, 'ts'] as never);
  if (isPg(db)) {
    if (opts.partitioned) t = t.modifyEnd(sql`partition by range (ts)`);
  } else {
    t = t.modifyEnd(sql`without rowid`);
  }
  await t.execute();
  if (isPg(db) && opts.partitioned) await sql`create table ${sql.raw(`${name}_default`)} partition of ${sql.table(name)} default`.execute(db);
}

export const fleet: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('nodes'))
      .addColumn('site_label', 'text')
      .addColumn('street', 'text', (c) => c.notNull())
      .addColumn('suburb', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('postcode', 'text', (c) => c.notNull())
      .addColumn('lat', 'real', (c) => c.notNull())
      .addColumn('lng', 'real', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('nmi', 'text', (c) => c.notNull())
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('serial_number', 'text', (c) => c.notNull().unique())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('unit_state', 'text', (c) => c.notNull())
      .addColumn('commissioned_at', 'bigint')
      .addColumn('phases', 'integer', (c) => c.notNull())
      .addColumn('solar_kw', 'real', (c) => c.notNull())
      .addColumn('inverter_kw', 'real', (c) => c.notNull())
      .addColumn('battery_kwh', 'real', (c) => c.notNull())
      .addColumn('battery_usable_kwh', 'real', (c) => c.notNull())
      .addColumn('battery_kw', 'real', (c) => c.notNull())
      .addColumn('inverter_brand', 'text', (c) => c.notNull())
      .addColumn('battery_brand', 'text')
      .addColumn('system_json', 'text', (c) => c.notNull())
      .addColumn('sim_json', 'text', (c) => c.notNull())
      .addColumn('last_contact', 'bigint')
      .addColumn('connection_offline', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nodes_state_postcode').on('nodes').columns(['state', 'postcode']).execute();
    // What the fleet search matches, apart from the wide node rows so that a search scans little.
    await db.schema
      .createTable('node_search')
      .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('search_text', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('fleet_members')
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('fleet_members_pk', ['organisation_id', 'node_id'])
      .execute();
    await db.schema.createIndex('fleet_members_node').on('fleet_members').column('node_id').execute();

    await withId(db, db.schema.createTable('node_events'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('duration', 'bigint')
      .execute();
    await db.schema.createIndex('node_events_node_ts').on('node_events').columns(['node_id', 'ts']).execute();

    await withId(db, db.schema.createTable('node_commands'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('start_ts', 'bigint', (c) => c.notNull())
      .addColumn('end_ts', 'bigint', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('responded_at', 'bigint')
      .execute();
    await db.schema.createIndex('node_commands_node_end').on('node_commands').columns(['node_id', 'end_ts']).execute();
    await db.schema.createIndex('node_commands_source').on('node_commands').column('source').execute();

    const rollupCols = [...METRIC_COLUMNS, ...ENERGY_COLUMNS];
    await telemetryTable(db, 'tel_raw', 'node_id', METRIC_COLUMNS, { rollup: false, partitioned: true });
    await telemetryTable(db, 'tel_5m', 'node_id', rollupCols, { rollup: true, partitioned: true });
    await telemetryTable(db, 'tel_1h', 'node_id', rollupCols, { rollup: true, partitioned: false });
    await telemetryTable(db, 'tel_1d', 'node_id', rollupCols, { rollup: true, partitioned: false });
    await telemetryTable(db, 'org_5m', 'organisation_id', FLEET_COLUMNS, { rollup: true, partitioned: false });
    await telemetryTable(db, 'org_1h', 'organisation_id', FLEET_COLUMNS, { rollup: true, partitioned: false });
    await telemetryTable(db, 'sub_5m', 'submeter_id', ['p', 'q'], { rollup: true, partitioned: false });

    let latest = db.schema
      .createTable('tel_latest')
      .addColumn('node_id', 'integer', (c) => c.primaryKey())
      .addColumn('ts', 'bigint', (c) => c.notNull());
    for (const col of METRIC_COLUMNS) latest = latest.addColumn(col, 'real');
    await latest.execute();

    await db.schema
      .createTable('submeters')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('submeters_node').on('submeters').column('node_id').execute();

    await db.schema
      .createTable('sim_state')
      .addColumn('node_id', 'integer', (c) => c.primaryKey())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('state_json', 'text', (c) => c.notNull())
      .execute();
  },
};
