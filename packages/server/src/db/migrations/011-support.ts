import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/** Issue 20: the support requests sent from the console's own form. */
export const support: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('support_requests'))
      .addColumn('reference', 'text', (c) => c.notNull().unique())
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      // The node as it was when the request was sent (no foreign key: the ticket outlives the node's
      // records, and the NMI and serial are what the help desk searches by).
      .addColumn('node_id', 'integer')
      .addColumn('node_nmi', 'text')
      .addColumn('node_serial', 'text')
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('contact_name', 'text', (c) => c.notNull())
      .addColumn('contact_email', 'text', (c) => c.notNull())
      .addColumn('contact_phone', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // The hourly limit counts a user's recent requests, and the page lists them newest first.
    await db.schema.createIndex('support_requests_user_created').on('support_requests').columns(['user_id', 'created_at']).execute();
  },
};
