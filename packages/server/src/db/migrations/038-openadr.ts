import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 31 (OpenADR 3.0.1): the OpenADR scopes an administrator gives an API key, and what the VTN
 * keeps that the console's own tables do not hold: VENs and their resources (written by the VENs'
 * clients), the VPPs each VEN takes part in (chosen by an administrator), subscriptions with their
 * delivery state, and the reports VENs post. Programs and events are not stored here: they are
 * read from the VPPs, the events and the market prices as they are.
 */
export const openadr: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('openadr_scopes', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await withId(db, db.schema.createTable('oadr_vens'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      .addColumn('client_key_id', 'integer', (c) => c.notNull())
      .addColumn('ven_name', 'text', (c) => c.notNull())
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('targets', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('modified_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('oadr_vens_name', ['organisation_id', 'ven_name'])
      .execute();
    await withId(db, db.schema.createTable('oadr_resources'))
      .addColumn('ven_id', 'integer', (c) => c.notNull().references('oadr_vens.id').onDelete('cascade'))
      .addColumn('resource_name', 'text', (c) => c.notNull())
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('targets', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('modified_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('oadr_resources_name', ['ven_id', 'resource_name'])
      .execute();
    await db.schema
      .createTable('oadr_ven_vpps')
      .addColumn('ven_id', 'integer', (c) => c.notNull().references('oadr_vens.id').onDelete('cascade'))
      .addColumn('powerstation_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('oadr_ven_vpps_pk', ['ven_id', 'powerstation_id'])
      .execute();
    await db.schema.createIndex('oadr_ven_vpps_vpp').on('oadr_ven_vpps').column('powerstation_id').execute();
    await withId(db, db.schema.createTable('oadr_subscriptions'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      .addColumn('client_key_id', 'integer', (c) => c.notNull())
      .addColumn('client_name', 'text', (c) => c.notNull())
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('object_operations', 'text', (c) => c.notNull())
      .addColumn('targets', 'text', (c) => c.notNull())
      // ACTIVE, or SUSPENDED after a day of failed deliveries.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('failing_since', 'bigint')
      .addColumn('last_delivery_at', 'bigint')
      .addColumn('last_delivery_result', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('modified_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oadr_subscriptions_org').on('oadr_subscriptions').columns(['organisation_id', 'status']).execute();
    await withId(db, db.schema.createTable('oadr_reports'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      .addColumn('client_key_id', 'integer', (c) => c.notNull())
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('client_name', 'text', (c) => c.notNull())
      .addColumn('report_name', 'text')
      .addColumn('payload_descriptors', 'text', (c) => c.notNull())
      .addColumn('resources', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('modified_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oadr_reports_event').on('oadr_reports').columns(['organisation_id', 'event_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['oadr_reports', 'oadr_subscriptions', 'oadr_ven_vpps', 'oadr_resources', 'oadr_vens']) await db.schema.dropTable(t).execute();
    await db.schema.alterTable('api_keys').dropColumn('openadr_scopes').execute();
  },
};
