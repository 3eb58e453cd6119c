import type { Kysely, Migration } from 'kysely';

/**
 * Issue 33 items 1 and 3. A dispatch's settlement states its measurement: the request's energy over
 * the settled window and how it splits (delivered, rejected, not delivered), the complete nodes'
 * baseline and measured energy at their meters, and the baseline's accuracy on the dispatch's
 * undisturbed homes (median of Σ|baseline − measured| ÷ Σ|measured|, and over how many homes); each
 * node's settled day its baseline energy. A RERT dispatch records AEMO's instruction and the reserve
 * contract it runs under (`rert_activations`), and its settlement the contract's payments.
 */
export const measurementRert: Migration = {
  async up(db: Kysely<unknown>) {
    for (const col of ['requested_kwh', 'baseline_kwh', 'measured_kwh', 'rejected_kwh', 'not_delivered_kwh'])
      await db.schema
        .alterTable('dispatch_settlements')
        .addColumn(col, 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
    await db.schema.alterTable('dispatch_settlements').addColumn('baseline_error', 'double precision').execute();
    await db.schema
      .alterTable('dispatch_settlements')
      .addColumn('baseline_error_nodes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // A RERT dispatch's contract payments (AUD, unrounded; null for a dispatch): availability,
    // pre-activation, activation and usage, and the customers' share of them.
    for (const col of ['rert_availability', 'rert_pre_activation', 'rert_activation', 'rert_usage', 'rert_customer_share'])
      await db.schema.alterTable('dispatch_settlements').addColumn(col, 'double precision').execute();
    await db.schema.alterTable('dispatch_settlement_nodes').addColumn('baseline_kwh', 'double precision').execute();
    await db.schema
      .createTable('rert_activations')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      // AEMO's instruction: its id, the reserve's notice category (short, medium or long notice),
      // the lack of reserve condition it answers (LOR1, LOR2, LOR3) and when it pre-activated and activated.
      .addColumn('instruction_id', 'text', (c) => c.notNull())
      .addColumn('notice_category', 'text', (c) => c.notNull())
      .addColumn('lor_condition', 'text', (c) => c.notNull())
      .addColumn('pre_activated_at', 'bigint', (c) => c.notNull())
      .addColumn('activated_at', 'bigint', (c) => c.notNull())
      // The reserve contract: its reference, the reserve contracted (MW), availability ($/MW per hour),
      // pre-activation and activation ($/MWh of the contracted reserve), usage ($/MWh delivered), and
      // the share of the payments credited to the customers (0 to 1).
      .addColumn('contract_ref', 'text', (c) => c.notNull())
      .addColumn('contract_mw', 'double precision', (c) => c.notNull())
      .addColumn('availability_rate', 'double precision', (c) => c.notNull())
      .addColumn('pre_activation_rate', 'double precision', (c) => c.notNull())
      .addColumn('activation_rate', 'double precision', (c) => c.notNull())
      .addColumn('usage_rate', 'double precision', (c) => c.notNull())
      .addColumn('customer_share', 'double precision', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rert_activations').execute();
    await db.schema.alterTable('dispatch_settlement_nodes').dropColumn('baseline_kwh').execute();
    for (const col of [
      'requested_kwh',
      'baseline_kwh',
      'measured_kwh',
      'rejected_kwh',
      'not_delivered_kwh',
      'baseline_error',
      'baseline_error_nodes',
      'rert_availability',
      'rert_pre_activation',
      'rert_activation',
      'rert_usage',
      'rert_customer_share',
    ])
      await db.schema.alterTable('dispatch_settlements').dropColumn(col).execute();
  },
};
