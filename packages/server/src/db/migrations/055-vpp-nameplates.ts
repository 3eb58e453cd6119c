import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Issue 30: each VPP's node count and nameplate sums, kept with the VPP, so that the VPP list costs
 * the same whatever its VPPs hold (it summed every member's nameplate on each call: ~47,000 nodes
 * for a VPP of the whole fleet). A VPP's members follow from its rule (its list, its postcodes, its
 * state, its DUID's units) within its organisation's fleet, so the database's own triggers, on both
 * databases and whoever writes, count a change to any of those or to a member's nameplate as a new
 * `version` of the VPP's sums; a reader finding `summed_version` behind sums the members again and
 * stores the sums under the version it read first, only if no change came meanwhile. A VPP's row is
 * made with the VPP and goes with it.
 */

/** The VPPs whose rule (before the fleet is applied) names the node `id` as it stands. */
const vppsNaming = (id: string) => `
  select powerstation_id from vpp_nodes where node_id = ${id}
  union select pp.powerstation_id from powerstation_postcodes pp join nodes n on n.postcode = pp.postcode where n.id = ${id}
  union select p.id from powerstations p join nodes n on n.state = p.state where n.id = ${id} and p.type = 'DYNAMIC'
  union select p.id from powerstations p join duid_units d on d.duid = p.duid join nodes n on n.serial_number = d.serial_number where n.id = ${id} and p.type = 'FCAS'`;

const bump = (where: string) => `update powerstation_nameplates set version = version + 1 where powerstation_id in (${where})`;

/** Each trigger: its name, what fires it, an optional condition on the row, and its statements. */
const TRIGGERS: { name: string; on: string; when?: string; body: string[] }[] = [
  { name: 'vpp_nameplates_vpp_insert', on: 'insert on powerstations', body: ['insert into powerstation_nameplates (powerstation_id) values (new.id)'] },
  {
    name: 'vpp_nameplates_vpp_rule',
    on: 'update of type, state, duid, organisation_id on powerstations',
    body: [bump('select new.id')],
  },
  ...(['vpp_nodes', 'powerstation_postcodes'] as const).flatMap((table) => [
    { name: `vpp_nameplates_${table}_insert`, on: `insert on ${table}`, body: [bump('select new.powerstation_id')] },
    { name: `vpp_nameplates_${table}_delete`, on: `delete on ${table}`, body: [bump('select old.powerstation_id')] },
    { name: `vpp_nameplates_${table}_update`, on: `update on ${table}`, body: [bump('select old.powerstation_id union select new.powerstation_id')] },
  ]),
  ...(['insert', 'delete', 'update'] as const).map((event) => ({
    name: `vpp_nameplates_duid_units_${event}`,
    on: `${event} on duid_units`,
    body: [
      bump(
        `select id from powerstations where type = 'FCAS' and duid in (${event === 'insert' ? 'new.duid' : event === 'delete' ? 'old.duid' : 'old.duid, new.duid'})`,
      ),
    ],
  })),
  // A node joining or leaving a fleet changes the VPPs of that organisation whose rule names it.
  {
    name: 'vpp_nameplates_fleet_insert',
    on: 'insert on fleet_members',
    body: [bump(`select id from powerstations where organisation_id = new.organisation_id and id in (${vppsNaming('new.node_id')})`)],
  },
  // On a node's deletion its row is gone when the cascade removes its memberships: its VPPs of the organisation are all counted again.
  {
    name: 'vpp_nameplates_fleet_delete',
    on: 'delete on fleet_members',
    body: [
      bump(
        `select id from powerstations where organisation_id = old.organisation_id and (id in (${vppsNaming('old.node_id')}) or not exists (select 1 from nodes where id = old.node_id))`,
      ),
    ],
  },
  {
    name: 'vpp_nameplates_fleet_update',
    on: 'update of organisation_id, node_id on fleet_members',
    body: [
      bump(`select id from powerstations where organisation_id = old.organisation_id and id in (${vppsNaming('old.node_id')})`),
      bump(`select id from powerstations where organisation_id = new.organisation_id and id in (${vppsNaming('new.node_id')})`),
    ],
  },
  {
    name: 'vpp_nameplates_node',
    on: 'update of battery_kwh, inverter_kw, battery_kw, postcode, state, serial_number on nodes',
    when: `old.battery_kwh is distinct from new.battery_kwh or old.inverter_kw is distinct from new.inverter_kw or old.battery_kw is distinct from new.battery_kw
      or old.postcode is distinct from new.postcode or old.state is distinct from new.state or old.serial_number is distinct from new.serial_number`,
    body: [
      bump(`${vppsNaming('new.id')}
        union select powerstation_id from powerstation_postcodes where postcode = old.postcode
        union select id from powerstations where type = 'DYNAMIC' and state = old.state
        union select p.id from powerstations p join duid_units d on d.duid = p.duid where p.type = 'FCAS' and d.serial_number = old.serial_number`),
    ],
  },
];

export const vppNameplates: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('powerstation_nameplates')
      .addColumn('powerstation_id', 'integer', (c) => c.primaryKey().references('powerstations.id').onDelete('cascade'))
      // Bumped by every change to the VPP's members or their nameplates; the sums are of `summed_version`.
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('summed_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('nodes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('battery_kwh', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('inverter_kw', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('battery_kw', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
    // Existing VPPs are summed by their first reader.
    await sql`insert into powerstation_nameplates (powerstation_id) select id from powerstations`.execute(db);
    for (const t of TRIGGERS) {
      const when = t.when ? ` when (${t.when})` : '';
      if (pg) {
        await sql.raw(`create function ${t.name}() returns trigger language plpgsql as $$ begin ${t.body.join('; ')}; return null; end $$`).execute(db);
        await sql.raw(`create trigger ${t.name} after ${t.on} for each row${when} execute function ${t.name}()`).execute(db);
      } else {
        await sql.raw(`create trigger ${t.name} after ${t.on} for each row${when} begin ${t.body.join('; ')}; end`).execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const t of TRIGGERS) {
      const table = t.on.split(' on ')[1];
      await sql.raw(pg ? `drop trigger ${t.name} on ${table}` : `drop trigger ${t.name}`).execute(db);
      if (pg) await sql.raw(`drop function ${t.name}()`).execute(db);
    }
    await db.schema.dropTable('powerstation_nameplates').execute();
  },
};
