import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 17: data export jobs. One row per export (what was asked, its status, progress and measured
 * rate, and the files it made); the work itself is a durable job that names the row.
 */
export const exportJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('export_jobs'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      // A random reference: the folder of the job's files, and part of their names.
      .addColumn('reference_id', 'text', (c) => c.notNull().unique())
      // operational or customer.
      .addColumn('task_type', 'text', (c) => c.notNull())
      // SUCCESS, PENDING, PROGRESS, FAILURE, REMOVED, CANCELLED.
      .addColumn('status', 'text', (c) => c.notNull())
      // The validated params (JSON) and the metric ids.
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('metrics', 'text', (c) => c.notNull())
      .addColumn('powerstation_id', 'integer')
      .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
      // Milliseconds left at the job's own measured rate; null until measured.
      .addColumn('time_remaining_ms', 'bigint')
      // The finished files (JSON: metric, label, filename, size, empty).
      .addColumn('files', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      // When the files are removed (SUCCESS only).
      .addColumn('expires_at', 'bigint')
      .execute();
    await db.schema.createIndex('export_jobs_org').on('export_jobs').columns(['organisation_id', 'id']).execute();
    await db.schema.createIndex('export_jobs_expiry').on('export_jobs').columns(['status', 'expires_at']).execute();
  },
};
