import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 35 item 5 (the backtest screen): each backtest asked for on a VPP's Trading tab, run by a
 * durable job in a worker thread, with its progress, and its figures (JSON) or why it failed.
 */
export const tradingBacktests: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('trading_backtests'))
      .addColumn('powerstation_id', 'integer', (c) => c.notNull())
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      // The period's first and last market days (YYYY-MM-DD) and its bounds, epoch seconds, [start, end).
      .addColumn('first_day', 'text', (c) => c.notNull())
      .addColumn('last_day', 'text', (c) => c.notNull())
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('period_end', 'bigint', (c) => c.notNull())
      .addColumn('requested_by', 'integer', (c) => c.notNull())
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('progress', 'real', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('trading_backtests_vpp').on('trading_backtests').columns(['powerstation_id', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('trading_backtests').execute();
  },
};
