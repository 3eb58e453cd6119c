import type { Kysely, Migration } from 'kysely';

/**
 * Issue 16: each user's dashboard (spec 2 §3 'Dashboard'): its widgets as the JSON the user saved
 * (widgetId, layout, settings), validated on the way in. No row: the default dashboard. And the
 * voltage heat map's index: where each node is and what a postcode or state VPP asks of it, so that
 * reading 50,000 nodes' places never reads their wide rows.
 */
export const dashboards: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_dashboards')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('widgets_json', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nodes_place').on('nodes').columns(['id', 'lat', 'lng', 'postcode', 'state']).execute();
  },
};
