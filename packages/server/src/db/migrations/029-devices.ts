import type { Kysely, Migration } from 'kysely';

/**
 * Issue 28 (devices on the wire): each node's device credential (the hash of a secret shown once),
 * the sequence numbers of the readings stored from each device (a reading sent again is stored
 * once, also after its bucket was folded), what the console last refused from each device, and the
 * command outbox's record of sending (when last sent; why a device refused).
 */
export const devices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('device_credentials')
      .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('device_readings')
      .addColumn('node_id', 'integer', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('device_readings_pk', ['node_id', 'seq'])
      .execute();
    await db.schema.createIndex('device_readings_ts').on('device_readings').column('ts').execute();
    await db.schema
      .createTable('device_status')
      .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('state_json', 'text')
      .addColumn('rejected_reason', 'text')
      .addColumn('rejected_at', 'bigint')
      .addColumn('rejected_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dropped_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('node_commands').addColumn('sent_at', 'bigint').execute();
    await db.schema.alterTable('node_commands').addColumn('reason', 'text').execute();
    await db.schema.createIndex('node_commands_pending').on('node_commands').columns(['status', 'end_ts']).execute();
  },
};
