import type { Kysely, Migration } from 'kysely';

/**
 * Issue 32 item 3, issue 33 item 7 (docs/precedence.md): a node's command carries the organisation
 * that gave it and its precedence (0 first), so that a node under events of several organisations
 * follows, for each window, the one with precedence. Commands stored before have no organisation and
 * the precedence of a retailer's market dispatch (1).
 */
export const commandPrecedence: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('node_commands').addColumn('organisation_id', 'integer').execute();
    await db.schema
      .alterTable('node_commands')
      .addColumn('precedence', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('node_commands').dropColumn('precedence').execute();
    await db.schema.alterTable('node_commands').dropColumn('organisation_id').execute();
  },
};
