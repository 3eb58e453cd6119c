import type { Kysely, Migration } from 'kysely';

/**
 * Issue 15 (curtailment credits): the solar an export limit held back, as an energy column of the node
 * rollups (kWh; null where none was, which is almost always, so it costs next to nothing), and a
 * curtailment's settlement, written once after it ends: the customers' curtailed energy valued at a
 * fixed rate, credited as grid-credit line items in the same transaction.
 */
export const curtailmentCredits: Migration = {
  async up(db: Kysely<unknown>) {
    // A nullable column with no default: metadata only on PostgreSQL (its partitions included) and SQLite.
    for (const table of ['tel_5m', 'tel_1h', 'tel_1d']) await db.schema.alterTable(table).addColumn('curtailed_e', 'real').execute();
    await db.schema
      .createTable('curtailment_settlements')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      // The window settled: [start, end), end being the cancel when the curtailment was cancelled earlier.
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('period_end', 'bigint', (c) => c.notNull())
      // kWh of solar the curtailment's limits held back on its nodes.
      .addColumn('curtailed_kwh', 'double precision', (c) => c.notNull())
      // AUD, unrounded, positive: what the customers are credited for it (curtailed kWh × rate).
      .addColumn('credit', 'double precision', (c) => c.notNull())
      // Nodes that held its limits, and those of them that had solar held back.
      .addColumn('nodes_limited', 'integer', (c) => c.notNull())
      .addColumn('nodes_curtailed', 'integer', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('curtailment_settlements').execute();
    for (const table of ['tel_5m', 'tel_1h', 'tel_1d']) await db.schema.alterTable(table).dropColumn('curtailed_e').execute();
  },
};
