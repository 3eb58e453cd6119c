import type { Kysely, Migration } from 'kysely';

/**
 * Issue 34 item 8: a default setpoint can be removed, not only superseded. `removed_at` marks the
 * moment its VPP's standing limits were lifted: the setpoint reads INACTIVE, and the VPP has no ACTIVE
 * setpoint until a new one is created (an older one does not come back).
 */
export const setpointRemoval: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('curtailment_setpoints').addColumn('removed_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('curtailment_setpoints').dropColumn('removed_at').execute();
  },
};
