import type { Kysely, Migration } from 'kysely';

// Issue 18: the kit designer's catalogue and the organisation's ordering address. The catalogue is
// data of this version of the console: a later migration changes it (its ids are the catalogue's, not
// generated, so that designs and tests name the same types on every database).

const INVERTER = '/kit/hybrid-inverter.svg';
const ALL_IN_ONE = '/kit/all-in-one.svg';
const BATTERY_INVERTER = '/kit/battery-inverter.svg';
const SOLAR_INVERTER = '/kit/solar-inverter.svg';
const HV_BATTERY = '/kit/hv-battery.svg';
const LV_BATTERY = '/kit/lv-battery.svg';

// [id, code, display name, manufacturer, usable Wh, image]
const BATTERIES: [number, string, string, string, number, string][] = [
  [1, 'SBR096', 'Sungrow SBR096 (9.6 kWh)', 'Sungrow', 9600, HV_BATTERY],
  [2, 'SBR128', 'Sungrow SBR128 (12.8 kWh)', 'Sungrow', 12800, HV_BATTERY],
  [3, 'SBR160', 'Sungrow SBR160 (16.0 kWh)', 'Sungrow', 16000, HV_BATTERY],
  [4, 'BYD-HVS-10.2', 'BYD Battery-Box Premium HVS 10.2', 'BYD', 10240, HV_BATTERY],
  [5, 'BYD-HVM-11.0', 'BYD Battery-Box Premium HVM 11.0', 'BYD', 11040, HV_BATTERY],
  [6, 'BYD-LVS-8.0', 'BYD Battery-Box Premium LVS 8.0', 'BYD', 8000, LV_BATTERY],
  [7, '3012170-05-B', 'Tesla Powerwall 2 (13.5 kWh)', 'Tesla', 13500, ALL_IN_ONE],
  [8, '1707000-21-K', 'Tesla Powerwall 3 (13.5 kWh)', 'Tesla', 13500, ALL_IN_ONE],
  [9, 'SMILE5-BAT', 'AlphaESS SMILE5-BAT (10.1 kWh)', 'AlphaESS', 10100, HV_BATTERY],
  [10, 'LX-U5.4-L', 'GoodWe Lynx Home U 5.4 kWh', 'GoodWe', 5400, LV_BATTERY],
  [11, 'IQBATTERY-5P-1P-INT', 'Enphase IQ Battery 5P (5.0 kWh)', 'Enphase', 4960, ALL_IN_ONE],
  [12, 'US5000', 'Pylontech US5000 (4.8 kWh)', 'Pylontech', 4560, LV_BATTERY],
];

// [id, code, display name, manufacturer, all-in-one, pv compatible (1, 0, null), phases, rated W, batteries, image]
const INVERTERS: [number, string, string, string, number, number | null, number, number, number[], string][] = [
  [1, 'SH5.0RS', 'Sungrow SH5.0RS hybrid (5 kW, single-phase)', 'Sungrow', 0, 1, 1, 5000, [1, 2, 3], INVERTER],
  [2, 'SH10RT', 'Sungrow SH10RT hybrid (10 kW, three-phase)', 'Sungrow', 0, 1, 3, 10000, [1, 2, 3], INVERTER],
  [3, '4,210,215', 'Fronius Primo GEN24 6.0 Plus (single-phase)', 'Fronius', 0, 1, 1, 6000, [4, 5], INVERTER],
  [4, '4,210,213', 'Fronius Symo GEN24 10.0 Plus (three-phase)', 'Fronius', 0, 1, 3, 10000, [4, 5], INVERTER],
  [5, 'GW5048D-ES', 'GoodWe GW5048D-ES hybrid (5 kW, single-phase)', 'GoodWe', 0, 1, 1, 5000, [10], INVERTER],
  [6, '1092170-03-J', 'Tesla Powerwall 2 AC (all-in-one)', 'Tesla', 1, null, 1, 5000, [7], ALL_IN_ONE],
  [7, '1707000-11-K', 'Tesla Powerwall 3 (all-in-one, solar inputs)', 'Tesla', 1, 1, 1, 10000, [8], ALL_IN_ONE],
  [8, 'SMILE5', 'AlphaESS SMILE5 (all-in-one, 5 kW)', 'AlphaESS', 1, 1, 1, 5000, [9], ALL_IN_ONE],
  [9, 'IQBATTERY-5P', 'Enphase IQ Battery 5P (all-in-one, AC-coupled)', 'Enphase', 1, null, 1, 3840, [11], ALL_IN_ONE],
  [10, 'SPMC482-AU', 'Selectronic SP PRO SPMC482 (battery inverter, 7.5 kW)', 'Selectronic', 0, null, 1, 7500, [6, 12], BATTERY_INVERTER],
  [11, 'MP2-48/5000', 'Victron MultiPlus-II 48/5000 (battery inverter)', 'Victron Energy', 0, 0, 1, 4000, [6, 12], BATTERY_INVERTER],
  [12, '4,210,063', 'Fronius Primo 5.0-1 (solar only, single-phase)', 'Fronius', 0, 1, 1, 5000, [], SOLAR_INVERTER],
  [13, 'STP10.0-3AV-40', 'SMA Sunny Tripower 10.0 (solar only, three-phase)', 'SMA', 0, 1, 3, 10000, [], SOLAR_INVERTER],
];

export const kitDesigner: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('kit_battery_types')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('manufacturer', 'text', (c) => c.notNull())
      .addColumn('usable_capacity_wh', 'integer', (c) => c.notNull())
      .addColumn('image_url', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('kit_inverter_types')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('manufacturer', 'text', (c) => c.notNull())
      .addColumn('all_in_one', 'integer', (c) => c.notNull())
      // 1, 0, or null when the solar is on its own inverter and its phases must be chosen.
      .addColumn('pv_compatible', 'integer')
      .addColumn('phases', 'integer', (c) => c.notNull())
      .addColumn('rated_power_w', 'integer', (c) => c.notNull())
      .addColumn('image_url', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('kit_inverter_batteries')
      .addColumn('inverter_type_id', 'integer', (c) => c.notNull().references('kit_inverter_types.id'))
      .addColumn('battery_type_id', 'integer', (c) => c.notNull().references('kit_battery_types.id'))
      .addPrimaryKeyConstraint('kit_inverter_batteries_pk', ['inverter_type_id', 'battery_type_id'])
      .execute();
    await db.schema.createIndex('kit_inverter_batteries_battery').on('kit_inverter_batteries').column('battery_type_id').execute();
    // Where an organisation's kit orders go besides the installer who sends them; null: only to them.
    await db.schema.alterTable('organisations').addColumn('ordering_email', 'text').execute();

    const d = db as Kysely<Record<string, Record<string, unknown>>>;
    await d
      .insertInto('kit_battery_types')
      .values(BATTERIES.map(([id, code, name, m, wh, image]) => ({ id, code, display_name: name, manufacturer: m, usable_capacity_wh: wh, image_url: image })))
      .execute();
    await d
      .insertInto('kit_inverter_types')
      .values(
        INVERTERS.map(([id, code, name, m, aio, pv, phases, w, , image]) => ({
          id,
          code,
          display_name: name,
          manufacturer: m,
          all_in_one: aio,
          pv_compatible: pv,
          phases,
          rated_power_w: w,
          image_url: image,
        })),
      )
      .execute();
    await d
      .insertInto('kit_inverter_batteries')
      .values(INVERTERS.flatMap(([id, , , , , , , , batteries]) => batteries.map((b) => ({ inverter_type_id: id, battery_type_id: b }))))
      .execute();
  },
};
