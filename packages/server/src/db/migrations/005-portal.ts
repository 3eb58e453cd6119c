import type { Kysely, Migration } from 'kysely';

/** One-time tokens (inverter portal links) that have been spent. */
export const portal: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('used_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('used_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
