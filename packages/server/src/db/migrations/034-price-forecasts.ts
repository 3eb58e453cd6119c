import type { Kysely, Migration } from 'kysely';

/**
 * Issue 33 item 2: forecast prices apart from actual ones. `market_forecasts` holds AEMO's imported
 * forecasts (P5MIN, PREDISPATCH), one row per run and period: the period [interval_start,
 * interval_end) is 5 minutes for P5MIN and 30 for PREDISPATCH, `issued_at` the run's time. Actual
 * prices stay in `market_prices`. `dispatch_quotes` keeps each dispatch's quote: the forecast cost
 * when it was created, and the issue time of the newest forecast it read.
 */
export const priceForecasts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('market_forecasts')
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('interval_start', 'bigint', (c) => c.notNull())
      .addColumn('interval_end', 'bigint', (c) => c.notNull())
      .addColumn('rrp', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_forecasts_pk', ['region', 'interval_start', 'issued_at', 'source'])
      .execute();
    await db.schema.createIndex('market_forecasts_issued').on('market_forecasts').columns(['region', 'issued_at']).execute();
    await db.schema
      .createTable('dispatch_quotes')
      .addColumn('event_id', 'integer', (c) => c.primaryKey())
      .addColumn('quoted_at', 'bigint', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('cost', 'double precision', (c) => c.notNull())
      .addColumn('trading_price', 'double precision', (c) => c.notNull())
      .addColumn('forecast_issued_at', 'bigint', (c) => c.notNull())
      .addColumn('forecast_source', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dispatch_quotes').execute();
    await db.schema.dropTable('market_forecasts').execute();
  },
};
