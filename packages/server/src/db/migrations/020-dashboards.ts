import type { Kysely, Migration } from 'kysely';

/**
 * Issue 16: each user's dashboard (spec 2 §3 'Dashboard'): its widgets as the JSON the user saved
 * (widgetId, layout, settings), validated on the way in. No row: the default dashboard.
 */
export const dashboards: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_dashboards')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('widgets_json', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
