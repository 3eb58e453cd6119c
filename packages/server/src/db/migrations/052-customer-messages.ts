import type { Kysely, Migration } from 'kysely';

/**
 * Issue 34 item 12: what became of each node's copy of an event's customer message (delivered to the
 * home's app when the app fetched it, read when the customer opened it), and a customer's opt-out of
 * a dispatch or a RERT dispatch (a grid outage's is on `outage_nodes` since migration 016).
 */
export const customerMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('message_receipts')
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('delivered_at', 'bigint')
      .addColumn('read_at', 'bigint')
      .addPrimaryKeyConstraint('message_receipts_pk', ['event_id', 'node_id'])
      .execute();
    await db.schema.createIndex('message_receipts_node').on('message_receipts').columns(['node_id', 'event_id']).execute();
    await db.schema.alterTable('dispatch_nodes').addColumn('opted_out_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dispatch_nodes').dropColumn('opted_out_at').execute();
    await db.schema.dropTable('message_receipts').execute();
  },
};
