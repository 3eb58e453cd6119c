import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 11: a dispatch is an event (the `events` row, type DISPATCH, carries its VPP and its time) with
 * its request, its allocation and orders per node, the customer message per node, and its audit.
 */
export const dispatchEvents: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dispatches')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('real_power_p', 'double precision', (c) => c.notNull())
      .addColumn('power_factor', 'double precision')
      .addColumn('power_factor_lead_lag', 'text')
      .addColumn('strategy', 'text', (c) => c.notNull())
      .addColumn('message_title', 'text')
      .addColumn('customer_message', 'text')
      // The user id without a foreign key: the audit outlives the user, who then shows as Unknown.
      .addColumn('created_by', 'integer')
      // When the orders went to the nodes: set in the transaction that sends them, so a restart never sends twice.
      .addColumn('orders_sent_at', 'bigint')
      // The start of the last 5-minute check for nodes that stopped reporting.
      .addColumn('checked_at', 'bigint')
      .execute();
    await db.schema
      .createTable('dispatch_nodes')
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull())
      .addColumn('share_kw', 'double precision', (c) => c.notNull())
      // The node's orders, [{start, end, kw}], as the allocation gave them.
      .addColumn('intervals', 'text', (c) => c.notNull())
      .addColumn('orders_sent_at', 'bigint')
      // Set when the node was dropped (stopped reporting) and its share given to the others.
      .addColumn('dropped_at', 'bigint')
      .addColumn('message_sent_at', 'bigint')
      .addPrimaryKeyConstraint('dispatch_nodes_pk', ['event_id', 'node_id'])
      .execute();
    // The overlap check looks a node's other dispatches up.
    await db.schema.createIndex('dispatch_nodes_node').on('dispatch_nodes').columns(['node_id', 'event_id']).execute();
    await withId(db, db.schema.createTable('event_audit'))
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('event_audit_event').on('event_audit').columns(['event_id', 'id']).execute();
    await db.schema.createIndex('events_org_type_start').on('events').columns(['organisation_id', 'type', 'start_time']).execute();
  },
};
