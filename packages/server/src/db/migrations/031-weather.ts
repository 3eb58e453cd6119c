import type { Kysely, Migration } from 'kysely';

/**
 * Issue 28 (the console stops importing the simulator): the weather the console keeps, hour by hour
 * per postcode: cloud cover (0 to 1) and air temperature (°C) as last issued by its weather source
 * (in the demo, the simulated world's; a real deployment feeds it from a weather service). The
 * forecast of the fleet and the dashboard's weather read it; `issued_at` tells a forecast from an
 * observation made after the hour.
 */
export const weather: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('weather')
      .addColumn('postcode', 'text', (c) => c.notNull())
      // The hour's start, epoch seconds.
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('cloud_cover', 'real', (c) => c.notNull())
      .addColumn('air_temp_c', 'real', (c) => c.notNull())
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('weather_pk', ['postcode', 'ts'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('weather').execute();
  },
};
