import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The read-only scopes as this migration found them (the registry's `.view` permissions): keys made
 * before scopes existed get them, the default of a new key, rather than all of their owner's rights.
 * Written out so that the migration means the same thing whatever the registry becomes.
 */
const READ_ONLY = [
  'fleet.status.view',
  'customer_data.view',
  'fleet.node.view',
  'fleet.node.data.view',
  'fleet.node.sga_data.view',
  'fleet.powerstations.view',
  'fleet.powerstations.data.view',
  'fleet.powerstations.gridOutages.view',
  'fleet.rert.dispatches.view',
  'fleet.dispatches.view',
  'fleet.curtailments.view',
  'fleet.billing.gridcredits.view',
  'fleet.analysis.export.view',
  'fleet.customerInformation.view',
];

/** Issue 9: API key scopes, and half-signed-in (two-factor pending) tokens that work once. */
export const authHardening: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await sql`update api_keys set scopes = ${JSON.stringify(READ_ONLY)}`.execute(db);
    // Two-factor-pending tokens (by their jti) that have been given a code: wrong codes so far, and
    // when a good one used the token up. Kept until the token expires.
    await db.schema
      .createTable('mfa_pending_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used_at', 'bigint')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
