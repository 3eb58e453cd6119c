import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 31 item 4: the console as a VEN of a network's VTN (OPENADR_VTN_URL). `oadr_vtn_state` is the
 * connection (one row per VTN URL): the VEN's id there, the last poll and its outcome.
 * `oadr_vtn_events` holds each capacity-limit event received: the VTN's id and modification time
 * (a change moves it), what it became (the curtailments made of it, or why none) and the report the
 * console keeps there with its response.
 */
export const openadrVen: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oadr_vtn_state')
      .addColumn('vtn_url', 'text', (c) => c.primaryKey())
      .addColumn('ven_id', 'text')
      .addColumn('subscribed', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('last_poll_at', 'bigint')
      .addColumn('last_ok_at', 'bigint')
      .addColumn('last_error', 'text')
      // One poll at a time across processes: the one that set it runs until it clears it (or it lapses).
      .addColumn('lease_until', 'bigint')
      .execute();
    await withId(db, db.schema.createTable('oadr_vtn_events'))
      .addColumn('vtn_url', 'text', (c) => c.notNull())
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      .addColumn('vtn_event_id', 'text', (c) => c.notNull())
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('event_name', 'text')
      .addColumn('modified', 'text', (c) => c.notNull())
      .addColumn('payload_type', 'text', (c) => c.notNull())
      // APPLIED (curtailments made), NOT_APPLIED (detail says why), DELETED (the VTN deleted it).
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('curtailment_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('report_id', 'text')
      .addColumn('reported_until', 'bigint')
      .addColumn('end_time', 'bigint')
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('oadr_vtn_events_key', ['vtn_url', 'vtn_event_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oadr_vtn_events').execute();
    await db.schema.dropTable('oadr_vtn_state').execute();
  },
};
