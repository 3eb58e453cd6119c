import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Issue 33 item 6: the history of each organisation's fleet membership, so that a month's invoice
 * counts the nodes under management in that month, not today's fleet. A row is one stay of a node in
 * an organisation's fleet, from `joined_at` to `left_at` (null while it stays). The fleet as it
 * stands is kept from when each node came into it (its created_at, or its commissioning if earlier).
 */
export const membershipHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fleet_membership_history')
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addColumn('left_at', 'bigint')
      .execute();
    await db.schema.createIndex('fleet_membership_history_org').on('fleet_membership_history').columns(['organisation_id', 'joined_at']).execute();
    await db.schema.createIndex('fleet_membership_history_node').on('fleet_membership_history').column('node_id').execute();
    await sql`insert into fleet_membership_history (organisation_id, node_id, joined_at, left_at)
      select fm.organisation_id, fm.node_id,
        case when n.commissioned_at is not null and n.commissioned_at < n.created_at then n.commissioned_at else n.created_at end, null
      from fleet_members fm join nodes n on n.id = fm.node_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fleet_membership_history').execute();
  },
};
