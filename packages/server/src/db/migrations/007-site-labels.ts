import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A node shared by a retailer, its network and its installer gets a site label per organisation:
 * the label lives on the fleet membership, seeded from the label the node was commissioned with
 * (kept on the node as `field_label`), so one organisation's renaming never shows to another.
 */
export const siteLabels: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('fleet_members').addColumn('site_label', 'text').execute();
    await sql`update fleet_members set site_label = (select site_label from nodes where nodes.id = fleet_members.node_id)`.execute(db);
    await db.schema.alterTable('nodes').renameColumn('site_label', 'field_label').execute();
  },
};
