import type { EnergyColumn, FleetColumn, MetricColumn } from './metrics.ts';

// The telemetry tables, typed for the queries that read them (the ingest writes them in bulk).

type Values<C extends string> = { [K in C]: number | null };
export type TelRawTable = { node_id: number; ts: number; dt: number } & Values<MetricColumn>;
/** A rollup row: time-weighted sums of each metric (value × seconds), energies in kWh, and the seconds covered. */
export type TelRollupTable = { node_id: number; ts: number; cov: number } & Values<MetricColumn | EnergyColumn>;
export type OrgRollupTable = { organisation_id: number; ts: number; cov: number } & Values<FleetColumn>;
export type SubRollupTable = { submeter_id: number; ts: number; cov: number; p: number | null; q: number | null };
/** A live reading whose 5-minute bucket is still open (see telemetry/fold.ts), with the solar curtailed. */
export type TelOpenTable = TelRawTable & { curtailed_p: number | null };
export type SubOpenTable = { submeter_id: number; ts: number; dt: number; p: number | null; q: number | null };

declare module '../db/schema.ts' {
  interface DB {
    tel_raw: TelRawTable;
    tel_5m: TelRollupTable;
    org_5m: OrgRollupTable;
    org_1h: OrgRollupTable;
    sub_5m: SubRollupTable;
    tel_open: TelOpenTable;
    sub_open: SubOpenTable;
  }
}

/** A column group (`grp`) of a node's local day of 5-minute history, compacted (compact.ts): `day` its local midnight, `slots` its 5-minute buckets. */
export type TelDayTable = { node_id: number; day: number; grp: number; slots: number; data: Uint8Array };

/** A submeter's local day of 5-minute history (power and reactive power), compacted. */
export type SubDayTable = { submeter_id: number; day: number; slots: number; data: Uint8Array };

declare module '../db/schema.ts' {
  interface DB {
    tel_day: TelDayTable;
    sub_day: SubDayTable;
  }
}
