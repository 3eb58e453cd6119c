import type { Kysely, Migration } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 15: grid-credit line items (written by the settlement of a dispatch or RERT dispatch, in its
 * transaction), the platform's monthly tax invoices with their immutable lines, and single-use
 * download tokens (stored as hashes, so that several server processes and a restart share them).
 */
export const billing: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('billing_items'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      // dispatch, rert or curtailment.
      .addColumn('event_kind', 'text', (c) => c.notNull())
      .addColumn('nmi', 'text', (c) => c.notNull())
      // The customer's local date, YYYY-MM-DD.
      .addColumn('day', 'text', (c) => c.notNull())
      // Epoch seconds: the start of the event within that day.
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      // kWh given by the customer's battery (positive: exported to the grid).
      .addColumn('amount', 'double precision', (c) => c.notNull())
      // $/kWh: cost / amount.
      .addColumn('rate', 'double precision', (c) => c.notNull())
      // Integer cents, positive: a credit to the customer. An event's items sum exactly to its settled value.
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Written once: a second settlement run of the same event inserts nothing.
    await db.schema.createIndex('billing_items_event_key').unique().on('billing_items').columns(['event_id', 'nmi', 'day', 'type']).execute();
    // Searches and downloads by day, in id order (keyset pages).
    await db.schema.createIndex('billing_items_org_day').on('billing_items').columns(['organisation_id', 'day', 'id']).execute();

    await withId(db, db.schema.createTable('invoices'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('number', 'text', (c) => c.notNull().unique())
      // The month billed, YYYY-MM, and the issue date, YYYY-MM-DD.
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('issue_date', 'text', (c) => c.notNull())
      .addColumn('supplier_name', 'text', (c) => c.notNull())
      .addColumn('supplier_abn', 'text', (c) => c.notNull())
      .addColumn('recipient_name', 'text', (c) => c.notNull())
      // Integer cents: lines before GST, GST (10 %, rounded once, half up), and the total.
      .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
      .addColumn('gst_cents', 'bigint', (c) => c.notNull())
      .addColumn('total_cents', 'bigint', (c) => c.notNull())
      .addColumn('paid', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('paid_at', 'bigint')
      .addColumn('paid_by', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // One invoice per organisation and month: a rerun of the monthly job issues nothing.
    await db.schema.createIndex('invoices_org_period').unique().on('invoices').columns(['organisation_id', 'period']).execute();

    await db.schema
      .createTable('invoice_lines')
      .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('quantity', 'integer', (c) => c.notNull())
      .addColumn('unit_cents', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('invoice_lines_pk', ['invoice_id', 'position'])
      .execute();

    await db.schema
      .createTable('download_tokens')
      // SHA-256 of the token (hex): the token itself is never stored.
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull())
      // The exact path and query (without the token) the token opens.
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('download_tokens_expires').on('download_tokens').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('download_tokens').execute();
    await db.schema.dropTable('invoice_lines').execute();
    await db.schema.dropTable('invoices').execute();
    await db.schema.dropTable('billing_items').execute();
  },
};
