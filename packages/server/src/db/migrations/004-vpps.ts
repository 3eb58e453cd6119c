import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Virtual power plants. Membership is stored only for STATIC VPPs (vpp_nodes); a DYNAMIC VPP's
 * members are the fleet's nodes at its postcodes or in its state, and an FCAS VPP's the units
 * registered under its DUID, both found by query so that nodes added later join by themselves.
 */
export const vpps: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('powerstations'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('duid', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('powerstations_organisation').on('powerstations').columns(['organisation_id', 'id']).execute();

    await db.schema
      .createTable('powerstation_postcodes')
      .addColumn('powerstation_id', 'integer', (c) => c.notNull().references('powerstations.id').onDelete('cascade'))
      .addColumn('postcode', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('powerstation_postcodes_pk', ['powerstation_id', 'postcode'])
      .execute();
    await db.schema.createIndex('powerstation_postcodes_postcode').on('powerstation_postcodes').column('postcode').execute();

    await db.schema
      .createTable('vpp_nodes')
      .addColumn('powerstation_id', 'integer', (c) => c.notNull().references('powerstations.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('vpp_nodes_pk', ['powerstation_id', 'node_id'])
      .execute();
    await db.schema.createIndex('vpp_nodes_node').on('vpp_nodes').column('node_id').execute();

    // AEMO registrations of units under a DUID, by unit serial number (a unit registered before its
    // node record exists joins the FCAS VPP when it appears).
    await db.schema
      .createTable('duid_units')
      .addColumn('duid', 'text', (c) => c.notNull())
      .addColumn('serial_number', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('duid_units_pk', ['duid', 'serial_number'])
      .execute();
    await db.schema.createIndex('duid_units_serial').on('duid_units').column('serial_number').execute();

    // Events on VPPs (dispatches, curtailments…): their own features fill this table. A deleted VPP
    // leaves its past events behind (powerstation_id becomes null) for settlement and history.
    await withId(db, db.schema.createTable('events'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('powerstation_id', 'integer', (c) => c.references('powerstations.id').onDelete('set null'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('duration', 'bigint', (c) => c.notNull())
      .addColumn('cancelled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_organisation_start').on('events').columns(['organisation_id', 'start_time']).execute();
    await db.schema.createIndex('events_powerstation_start').on('events').columns(['powerstation_id', 'start_time']).execute();
  },
};
