import type { Kysely, Migration } from 'kysely';

/**
 * Issue 33 item 5: a dispatch's grid credit carries both sides of the same kWh, so the billing CSV
 * shows them: `spot_value`, the spot value of the node's energy that day (AUD, as the VPP settled
 * it: positive earned), and `feed_in_deduction`, what the plan's feed-in tariff already pays on the
 * bill for the kWh discharged (AUD), taken off the credit. Null where the line is not a spot credit
 * (a RERT dispatch's contract share, a curtailment's feed-in) and on lines written before.
 */
export const creditSides: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('billing_items').addColumn('spot_value', 'double precision').execute();
    await db.schema.alterTable('billing_items').addColumn('feed_in_deduction', 'double precision').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('billing_items').dropColumn('feed_in_deduction').execute();
    await db.schema.alterTable('billing_items').dropColumn('spot_value').execute();
  },
};
