import type { NodeMetric } from '@vpp/shared/nodes/schemas';

/**
 * The telemetry columns, one per measured quantity. Rollup tables store each as a time-weighted sum
 * (value × seconds) beside `cov`, the seconds of data in the bucket, so averages stay right when
 * samples are missing or of different lengths.
 */
export const METRIC_COLUMNS = [
  'meter_p',
  'meter_p_a',
  'meter_p_b',
  'meter_p_c',
  'solar_p',
  'sga_p',
  'battery_p',
  'house_p',
  'voltage',
  'voltage_a',
  'voltage_b',
  'voltage_c',
  'frequency',
  'meter_q',
  'solar_q',
  'current',
  'soc',
  'remaining',
] as const;
export type MetricColumn = (typeof METRIC_COLUMNS)[number];

/**
 * Writes the sample's values into `out` in METRIC_COLUMNS order, NaN where absent (an array of
 * plain doubles is what the ingest's hot loop wants). Spelled out
 * rather than looped over the column names: this runs for every sample the fleet sends.
 */
export function metricValues(s: Sample, out: number[]): void {
  out[0] = s.meter_p ?? Number.NaN;
  out[1] = s.meter_p_a ?? Number.NaN;
  out[2] = s.meter_p_b ?? Number.NaN;
  out[3] = s.meter_p_c ?? Number.NaN;
  out[4] = s.solar_p ?? Number.NaN;
  out[5] = s.sga_p ?? Number.NaN;
  out[6] = s.battery_p ?? Number.NaN;
  out[7] = s.house_p ?? Number.NaN;
  out[8] = s.voltage ?? Number.NaN;
  out[9] = s.voltage_a ?? Number.NaN;
  out[10] = s.voltage_b ?? Number.NaN;
  out[11] = s.voltage_c ?? Number.NaN;
  out[12] = s.frequency ?? Number.NaN;
  out[13] = s.meter_q ?? Number.NaN;
  out[14] = s.solar_q ?? Number.NaN;
  out[15] = s.current ?? Number.NaN;
  out[16] = s.soc ?? Number.NaN;
  out[17] = s.remaining ?? Number.NaN;
}

/**
 * Energy columns of rollups, in kWh: grid import and export, solar generation, house consumption, and
 * the solar curtailed (held back to meet an export limit). The curtailed energy is null, not 0, where
 * none was held back, which is almost always: a null costs next to nothing to store on either database.
 */
export const ENERGY_COLUMNS = ['import_e', 'export_e', 'solar_e', 'house_e', 'curtailed_e'] as const;
export type EnergyColumn = (typeof ENERGY_COLUMNS)[number];

/** The API's metric names (spec 2 §3) and the column each reads. */
export const METRIC_TO_COLUMN: Record<NodeMetric, MetricColumn> = {
  meterPower: 'meter_p',
  meterPowerA: 'meter_p_a',
  meterPowerB: 'meter_p_b',
  meterPowerC: 'meter_p_c',
  solarPower: 'solar_p',
  meterSGA: 'sga_p',
  batteryPower: 'battery_p',
  housePower: 'house_p',
  meterVoltage: 'voltage',
  meterVoltageA: 'voltage_a',
  meterVoltageB: 'voltage_b',
  meterVoltageC: 'voltage_c',
  meterFrequency: 'frequency',
  meterReactivePower: 'meter_q',
  solarReactivePower: 'solar_q',
  meterCurrent: 'current',
  soc: 'soc',
  remainingCharge: 'remaining',
};

/** Fleet-wide (organisation) rollups keep only the quantities that add up across nodes. */
export const FLEET_COLUMNS = ['meter_p', 'solar_p', 'battery_p', 'house_p', 'remaining'] as const;
export type FleetColumn = (typeof FLEET_COLUMNS)[number];
export const FLEET_METRIC_TO_COLUMN: Record<string, FleetColumn> = {
  meterPower: 'meter_p',
  solarPower: 'solar_p',
  batteryPower: 'battery_p',
  housePower: 'house_p',
  remainingCharge: 'remaining',
};

/**
 * One reading of one node: instantaneous values (kW, V, Hz, kvar, A, %, kWh) held for `dt` seconds.
 * `curtailed_p` is the solar (kW) the inverter held back to meet an export limit: it is kept only as
 * the rollups' curtailed energy (no raw column: it is zero almost always).
 */
export type Sample = { nodeId: number; ts: number; dt: number; curtailed_p?: number | null } & Partial<Record<MetricColumn, number | null>>;
