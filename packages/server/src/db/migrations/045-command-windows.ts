import type { Kysely, Migration } from 'kysely';

/**
 * Issue 28 (docs/precedence.md, docs/devices.md): the console resolves command precedence before
 * the wire, so a device follows only what it is sent. `revise` marks a command whose followed
 * windows may have changed (another command of its node came, went or was declined; it was
 * withdrawn or ended early): the outbox looks at it again and sends the device the new form.
 * `wire` is the form last sent (its windows and end, or the withdrawal), so nothing unchanged is
 * sent twice.
 */
export const commandWindows: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('node_commands').addColumn('wire', 'text').execute();
    await db.schema
      .alterTable('node_commands')
      .addColumn('revise', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('node_commands_revise').on('node_commands').columns(['revise', 'end_ts']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('node_commands_revise').execute();
    await db.schema.alterTable('node_commands').dropColumn('revise').execute();
    await db.schema.alterTable('node_commands').dropColumn('wire').execute();
  },
};
