import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

export const platform: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('organisations'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('suborg_type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db, db.schema.createTable('users'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('given_name', 'text', (c) => c.notNull())
      .addColumn('surname', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('timezone', 'text')
      .addColumn('alert_email_frequency', 'text', (c) => c.notNull().defaultTo('DAILY'))
      .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('totp_secret', 'text')
      .addColumn('totp_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('totp_last_step', 'bigint')
      .addColumn('code_preference', 'text', (c) => c.notNull().defaultTo('APP'))
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_organisation').on('users').column('organisation_id').execute();

    await db.schema
      .createTable('user_permissions')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('permission', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
      .execute();

    await db.schema
      .createTable('refresh_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family').execute();

    await db.schema
      .createTable('remembered_devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('captcha_used')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('used_at', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db, db.schema.createTable('login_failures'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_failures_key_at').on('login_failures').columns(['key', 'at']).execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
