import type { Kysely, Migration } from 'kysely';

/**
 * Issue 31 item 4: a network's import capacity limit (OpenADR IMPORT_CAPACITY_LIMIT) is a curtailment
 * of component `import`, held by the VPP's homes with a battery; each one's share of the VPP's
 * maximum net import (kW, 0 or more) beside the export shares of `limit_nodes`.
 */
export const importLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('limit_nodes').addColumn('import_kw', 'double precision').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('limit_nodes').dropColumn('import_kw').execute();
  },
};
