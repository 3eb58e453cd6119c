import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 13: a curtailment is an event (type CURTAILMENT) with its limit and what it limits; a default
 * setpoint is a VPP's standing limit (the newest is the active one). Both split their VPP limit into
 * per-node limits, kept per node with the source of their commands (`curtailment:{id}` or
 * `setpoint:{id}`), so the engine can re-split among the nodes that report.
 */
export const curtailments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('curtailments')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      // grid (net, export at the meters) or solar (gross, solar generation).
      .addColumn('component', 'text', (c) => c.notNull())
      // kW, 0 or negative: -5 holds the VPP's export (or solar) to 5 kW.
      .addColumn('real_power_p', 'double precision', (c) => c.notNull())
      // 1 when raised by the network rather than an operator; reason says why.
      .addColumn('triggered', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reason', 'text')
      .addColumn('created_by', 'integer')
      // Set in the transaction that sends the per-node limits: a restart never sends twice.
      .addColumn('orders_sent_at', 'bigint')
      // The start of the last 5-minute re-split among the reporting nodes.
      .addColumn('checked_at', 'bigint')
      .execute();
    await withId(db, db.schema.createTable('curtailment_setpoints'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
      // Null once the VPP is deleted: the engine then ends the setpoint's standing limits.
      .addColumn('powerstation_id', 'integer', (c) => c.references('powerstations.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('ramp_duration', 'integer', (c) => c.notNull())
      // kW, 0 or negative: the gross (inverter output) and net (export at the meters) limits.
      .addColumn('solar_limit', 'double precision', (c) => c.notNull())
      .addColumn('grid_limit', 'double precision', (c) => c.notNull())
      .addColumn('orders_sent_at', 'bigint')
      .addColumn('checked_at', 'bigint')
      .execute();
    await db.schema.createIndex('curtailment_setpoints_org').on('curtailment_setpoints').columns(['organisation_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('curtailment_setpoints_vpp').on('curtailment_setpoints').columns(['powerstation_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('limit_nodes')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('node_id', 'integer', (c) => c.notNull())
      // The node's share of the VPP limit, kW (0 or more, as opModExpLimW / opModGenLimW); null: none in that mode.
      .addColumn('net_kw', 'double precision')
      .addColumn('gross_kw', 'double precision')
      .addColumn('orders_sent_at', 'bigint')
      // Set when the node stopped reporting and its share went to the others.
      .addColumn('dropped_at', 'bigint')
      .addPrimaryKeyConstraint('limit_nodes_pk', ['source', 'node_id'])
      .execute();
  },
};
