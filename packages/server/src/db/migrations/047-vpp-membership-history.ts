import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Issue 33 item 6: the history of each manual (STATIC) VPP's node list, beside the fleet's
 * (migration 044), so that a past period can be answered with the VPP's nodes of that period. A row
 * is one stay of a node in a VPP's list, from `joined_at` to `left_at` (null while it stays); no
 * foreign key to the VPP, so its history outlives a deleted VPP. An automatic VPP (by postcode, state
 * or DUID) keeps no list: its members of a period are the fleet's of that period matching its rule.
 * The lists as they stand are kept from the later of the VPP's and the node's creation.
 */
export const vppMembershipHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('vpp_membership_history')
      .addColumn('powerstation_id', 'integer', (c) => c.notNull())
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addColumn('left_at', 'bigint')
      .execute();
    await db.schema.createIndex('vpp_membership_history_vpp').on('vpp_membership_history').columns(['powerstation_id', 'joined_at']).execute();
    await db.schema.createIndex('vpp_membership_history_node').on('vpp_membership_history').column('node_id').execute();
    await sql`insert into vpp_membership_history (powerstation_id, node_id, joined_at, left_at)
      select vn.powerstation_id, vn.node_id,
        case when p.created_at > n.created_at then p.created_at else n.created_at end, null
      from vpp_nodes vn join powerstations p on p.id = vn.powerstation_id join nodes n on n.id = vn.node_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('vpp_membership_history').execute();
  },
};
