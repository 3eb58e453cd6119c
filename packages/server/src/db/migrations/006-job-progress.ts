import type { Kysely, Migration } from 'kysely';

/** Jobs report how far they are and what they made (exports, invoices, settlement runs). */
export const jobProgress: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('progress', 'real').execute();
    await db.schema.alterTable('jobs').addColumn('result', 'text').execute();
  },
};
