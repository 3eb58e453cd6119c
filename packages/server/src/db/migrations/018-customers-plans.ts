import { type Kysely, type Migration, sql } from 'kysely';
import { withId } from './helpers.ts';

/**
 * Issue 14: retail plans with their versions (each version's prices as JSON from its start date),
 * the customer agreements of each organisation's homes over time, and the plans its customers hold
 * over time. A customer is a node of the organisation's fleet: these tables hold only what the
 * node does not.
 */
export const customersPlans: Migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('plans'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      // Lower case, spaces collapsed: what makes two names or codes the same.
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('plan_code', 'text', (c) => c.notNull())
      .addColumn('code_key', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('operational_network_uid', 'text', (c) => c.notNull())
      // The latest version's type and start date, kept here for the list's filters and sorts.
      .addColumn('tariff_type', 'text', (c) => c.notNull())
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plans_org_name').unique().on('plans').columns(['organisation_id', 'name_key']).execute();
    await db.schema.createIndex('plans_org_code').unique().on('plans').columns(['organisation_id', 'code_key']).execute();

    await withId(db, db.schema.createTable('plan_versions'))
      .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id').onDelete('cascade'))
      // YYYY-MM-DD in the customer's local time.
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('prices', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plan_versions_plan_start').unique().on('plan_versions').columns(['plan_id', 'start_date']).execute();

    await withId(db, db.schema.createTable('customer_agreements'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('signed_date', 'text', (c) => c.notNull())
      // The day the agreement stopped applying (a later version replaced it, or it was withdrawn).
      .addColumn('ended_date', 'text')
      .execute();
    await db.schema.createIndex('customer_agreements_org_node').on('customer_agreements').columns(['organisation_id', 'node_id', 'ended_date']).execute();

    await withId(db, db.schema.createTable('customer_plans'))
      .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text')
      .execute();
    await db.schema.createIndex('customer_plans_org_node').on('customer_plans').columns(['organisation_id', 'node_id', 'end_date']).execute();
    // Customers are found by NMI (the web names them by it).
    await db.schema.createIndex('nodes_nmi').on('nodes').column('nmi').execute();
    // The commissioned homes, for counting those under an agreement without reading node rows.
    await db.schema.createIndex('nodes_commissioned').on('nodes').column('id').where(sql.ref('unit_state'), '=', 'COMMISSIONED').execute();
    await db.schema.createIndex('customer_plans_plan').on('customer_plans').columns(['plan_id', 'end_date']).execute();
  },
};
