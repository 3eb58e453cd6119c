import type { EnergyColumn, FleetColumn, MetricColumn } from '../metrics.ts';

// The telemetry tables, typed for the queries that read them (the ingest writes them in bulk).

type Values<C extends string> = { [K in C]: number | null };
export type TelRawTable = { node_id: number; ts: number; dt: number } & Values<MetricColumn>;
/** A rollup row: time-weighted sums of each metric (value × seconds), energies in kWh, and the seconds covered. */
export type TelRollupTable = { node_id: number; ts: number; cov: number } & Values<MetricColumn | EnergyColumn>;
export type OrgRollupTable = { organisation_id: number; ts: number; cov: number } & Values<FleetColumn>;
export type SubRollupTable = { submeter_id: number; ts: number; cov: number; p: number | null; q: number | null };

declare module '../../db/schema.ts' {
  interface DB {
    tel_raw: TelRawTable;
    tel_5m: TelRollupTable;
    tel_1h: TelRollupTable;
    tel_1d: TelRollupTable;
    org_5m: OrgRollupTable;
    org_1h: OrgRollupTable;
    sub_5m: SubRollupTable;
  }
}
