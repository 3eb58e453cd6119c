import type { Kysely, Migration } from 'kysely';

/**
 * Issue 11, item 5: a dispatch's settlement, written once about an hour after it ends. One row per
 * dispatch (its totals as `GET /api/dispatches/{id}/cost` answers them) and one per responding node
 * and local day of the node, the unit of billing's grid-credit line items (per NMI per day). The
 * primary keys make the settlement written once: a second run inserts nothing.
 */
export const dispatchSettlements: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dispatch_settlements')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      // The window settled: [start, end), end being the cancel when the dispatch was cancelled.
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('period_end', 'bigint', (c) => c.notNull())
      // AUD, unrounded: charging at a positive price costs (positive), discharging earns (negative).
      .addColumn('cost', 'double precision', (c) => c.notNull())
      // kWh of the nodes included (complete data), signed like battery power; charged and discharged apart.
      .addColumn('energy_kwh', 'double precision', (c) => c.notNull())
      .addColumn('charged_kwh', 'double precision', (c) => c.notNull())
      .addColumn('discharged_kwh', 'double precision', (c) => c.notNull())
      // Energy of included nodes outside the NEM: delivered, with no price to value it at.
      .addColumn('unpriced_kwh', 'double precision', (c) => c.notNull())
      // Energy-weighted average $/MWh of what was charged and of what was discharged; null when none was.
      .addColumn('buy_price', 'double precision')
      .addColumn('sell_price', 'double precision')
      .addColumn('nodes_responding', 'integer', (c) => c.notNull())
      .addColumn('nodes_complete', 'integer', (c) => c.notNull())
      .addColumn('coverage', 'double precision', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('dispatch_settlement_nodes')
      .addColumn('event_id', 'integer', (c) => c.notNull().references('dispatch_settlements.event_id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull())
      // 00:00 of the node's local day (its time zone) the energy was delivered in.
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('region', 'text')
      .addColumn('delivered_kwh', 'double precision', (c) => c.notNull())
      // AUD, unrounded; null outside the NEM (no price).
      .addColumn('value', 'double precision')
      // 1 when the node has a full 5-minute rollup for every interval of the event: only those count in the totals.
      .addColumn('complete', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('dispatch_settlement_nodes_pk', ['event_id', 'node_id', 'day_start'])
      .execute();
    // Billing reads a node's settled days.
    await db.schema.createIndex('dispatch_settlement_nodes_node').on('dispatch_settlement_nodes').columns(['node_id', 'day_start']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dispatch_settlement_nodes').execute();
    await db.schema.dropTable('dispatch_settlements').execute();
  },
};
