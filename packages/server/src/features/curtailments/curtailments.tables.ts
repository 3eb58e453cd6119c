import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables (migration 017); the augmentation adds them to the database's type.

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
}

export interface LimitNodeTable {
  source: string;
  node_id: number;
  net_kw: number | null;
  gross_kw: number | null;
  orders_sent_at: Epoch | null;
  dropped_at: Epoch | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    curtailments: CurtailmentTable;
    curtailment_setpoints: CurtailmentSetpointTable;
    limit_nodes: LimitNodeTable;
  }
}
