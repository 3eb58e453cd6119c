import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables (migrations 017 and 022); the augmentation adds them to the database's type.

export interface CurtailmentTable {
  event_id: number;
  component: string;
  real_power_p: number;
  triggered: Generated<number>;
  reason: string | null;
  created_by: number | null;
  orders_sent_at: Epoch | null;
  checked_at: Epoch | null;
}

export interface CurtailmentSetpointTable {
  id: Generated<number>;
  organisation_id: number;
  powerstation_id: number | null;
  created_at: Epoch;
  created_by: number | null;
  ramp_duration: number;
  solar_limit: number;
  grid_limit: number;
  orders_sent_at: Epoch | null;
  checked_at: Epoch | null;
  /** When a user removed it (its standing limits lifted); null while it stands or was only superseded. */
  removed_at: Epoch | null;
}

export interface LimitNodeTable {
  source: string;
  node_id: number;
  net_kw: number | null;
  gross_kw: number | null;
  /** An import limit's share (migration 053): the node's maximum import, kW. */
  import_kw: number | null;
  orders_sent_at: Epoch | null;
  dropped_at: Epoch | null;
}

/** A curtailment's settlement (migration 022): written once, with its grid credits. */
export interface CurtailmentSettlementTable {
  event_id: number;
  settled_at: Epoch;
  period_start: Epoch;
  period_end: Epoch;
  curtailed_kwh: number;
  credit: number;
  nodes_limited: number;
  nodes_curtailed: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    curtailments: CurtailmentTable;
    curtailment_settlements: CurtailmentSettlementTable;
    curtailment_setpoints: CurtailmentSetpointTable;
    limit_nodes: LimitNodeTable;
  }
}
