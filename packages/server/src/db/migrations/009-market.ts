import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/** Issue 11: 5-minute market prices per NEM region, the days the model has written, and the imports. */
export const market: Migration = {
  async up(db: Kysely<unknown>) {
    // One price per region and 5-minute interval, keyed by the interval's start (AEMO stamps its end).
    // source MODEL: the price model's, written once; AEMO: imported, replaced only by a newer one.
    await db.schema
      .createTable('market_prices')
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('interval_start', 'bigint', (c) => c.notNull())
      .addColumn('rrp', 'double precision', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('published_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_prices_pk', ['region', 'interval_start'])
      .execute();
    // The market days (UTC+10) whose 288 model prices a region has: read once, never rewritten.
    await db.schema
      .createTable('market_model_days')
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('written_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_model_days_pk', ['region', 'day_start'])
      .execute();
    await withId(db, db.schema.createTable('market_imports'))
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('prices', 'integer', (c) => c.notNull())
      .addColumn('written', 'integer', (c) => c.notNull())
      .addColumn('first_interval', 'bigint', (c) => c.notNull())
      .addColumn('last_interval', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('organisation_id', 'integer')
      .addColumn('imported_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
