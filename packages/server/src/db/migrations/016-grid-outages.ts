import type { Kysely, Migration } from 'kysely';

/**
 * Issue 12: a grid outage is an event (type GRID_OUTAGE) with its reason and customer message, the
 * nodes it prepares (each with its orders and its customer's opt-out), and the customer-app tokens
 * nodes use to opt out (only a hash kept).
 */
export const gridOutages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('grid_outages')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('outage_reason', 'text', (c) => c.notNull())
      .addColumn('message_title', 'text')
      .addColumn('customer_message', 'text')
      .addColumn('created_by', 'integer')
      // Set in the transaction that sends the orders: a restart never sends twice.
      .addColumn('orders_sent_at', 'bigint')
      .execute();
    await db.schema
      .createTable('outage_nodes')
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull())
      // When its battery starts charging to full (from the grid if need be).
      .addColumn('prepare_from', 'bigint')
      .addColumn('orders_sent_at', 'bigint')
      .addColumn('opted_out_at', 'bigint')
      // APP (the customer's app) or SIMULATED (the demo's simulated customer).
      .addColumn('opted_out_by', 'text')
      .addPrimaryKeyConstraint('outage_nodes_pk', ['event_id', 'node_id'])
      .execute();
    await db.schema.createIndex('outage_nodes_node').on('outage_nodes').columns(['node_id', 'event_id']).execute();
    await db.schema
      .createTable('node_app_tokens')
      .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
