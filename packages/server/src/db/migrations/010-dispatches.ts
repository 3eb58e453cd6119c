import type { Kysely, Migration } from 'kysely';

/**
 * Issue 11: the dispatch constraints and predictions read, for every member node of a VPP, its
 * state, its battery and the facts the forecast needs. Node rows are wide (the system description
 * rides along), so a covering index holding only these columns lets a VPP of 10,000 nodes be read
 * without touching the rows themselves.
 */
export const dispatches: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('nodes_dispatch_facts')
      .on('nodes')
      .columns([
        'id',
        'unit_state',
        'connection_offline',
        'battery_usable_kwh',
        'battery_kw',
        'inverter_kw',
        'solar_kw',
        'lat',
        'lng',
        'region',
        'timezone',
        'sim_json',
      ])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('nodes_dispatch_facts').execute();
  },
};
