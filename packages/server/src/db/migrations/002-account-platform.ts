import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/** Durable jobs, password tokens, API keys and notifications (issue 4). */
export const accountPlatform: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per unit of background work. A worker claims a row by setting a lease (locked_by,
    // locked_until); a row whose lease ran out while still pending is claimed again.
    await withId(db, db.schema.createTable('jobs'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('unique_key', 'text', (c) => c.unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();

    // Reset and set-password links: only the hash of the token is kept.
    await db.schema
      .createTable('password_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('disavowed_at', 'bigint')
      .addColumn('requested_from', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_tokens_user').on('password_tokens').columns(['user_id', 'created_at']).execute();

    await withId(db, db.schema.createTable('api_keys'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key_name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('ip_whitelist', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

    await withId(db, db.schema.createTable('notifications'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('read_at', 'bigint')
      .addColumn('emailed_at', 'bigint')
      .execute();
    await db.schema.createIndex('notifications_user_created').on('notifications').columns(['user_id', 'created_at']).execute();
    // When the user's last alert digest (hourly, daily or weekly) was made.
    await db.schema.alterTable('users').addColumn('alert_digest_at', 'bigint').execute();
  },
};
