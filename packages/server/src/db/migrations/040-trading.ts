import type { Kysely, Migration } from 'kysely';

/**
 * Issue 35 (automatic trading): each VPP's trading policy, the latest plan of each interval (an
 * interval's row keeps the last plan made before it started, so the past shows what was planned),
 * and the mark on a dispatch that the plan made it (its reason reads "Automatic").
 */
export const trading: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('trading_policies')
      .addColumn('powerstation_id', 'integer', (c) => c.primaryKey())
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('from_hour', 'integer', (c) => c.notNull())
      .addColumn('to_hour', 'integer', (c) => c.notNull())
      .addColumn('max_power_kw', 'real')
      .addColumn('min_soc_pct', 'real', (c) => c.notNull())
      .addColumn('max_cycles_per_day', 'real', (c) => c.notNull())
      .addColumn('degradation_cost', 'real', (c) => c.notNull())
      .addColumn('grid_charging', 'integer', (c) => c.notNull())
      // The user whose dispatches the plan makes (who set the policy automatic).
      .addColumn('updated_by', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('planned_at', 'bigint')
      .addColumn('suspended', 'text')
      .execute();
    await db.schema
      .createTable('trading_plan')
      .addColumn('powerstation_id', 'integer', (c) => c.notNull())
      .addColumn('interval_start', 'bigint', (c) => c.notNull())
      .addColumn('kw', 'real', (c) => c.notNull())
      .addColumn('price', 'real', (c) => c.notNull())
      .addColumn('stored_kwh', 'real', (c) => c.notNull())
      .addColumn('revenue', 'real', (c) => c.notNull())
      .addColumn('planned_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('trading_plan_pk', ['powerstation_id', 'interval_start'])
      .execute();
    await db.schema.alterTable('dispatches').addColumn('origin', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dispatches').dropColumn('origin').execute();
    await db.schema.dropTable('trading_plan').execute();
    await db.schema.dropTable('trading_policies').execute();
  },
};
