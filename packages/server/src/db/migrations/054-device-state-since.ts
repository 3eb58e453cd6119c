import type { Kysely, Migration } from 'kysely';

/**
 * Issue 28 item 9: when the connection began that a device's last recorded `state` speaks for (the
 * state's `ts`, epoch seconds with fractions). Several console processes take a device's last will
 * and its next state online in either order; the later connection wins, whichever comes last.
 */
export const deviceStateSince: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('device_status').addColumn('state_since', 'double precision').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('device_status').dropColumn('state_since').execute();
  },
};
