import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface TradingPolicyTable {
  powerstation_id: number;
  organisation_id: number;
  mode: string;
  from_hour: number;
  to_hour: number;
  max_power_kw: number | null;
  min_soc_pct: number;
  max_cycles_per_day: number;
  degradation_cost: number;
  grid_charging: number;
  /** Who set the policy last: the plan's dispatches are made in their name. */
  updated_by: number;
  updated_at: Epoch;
  planned_at: Epoch | null;
  /** Why the policy does not act now; null when it does. */
  suspended: string | null;
}

/** The latest plan of each interval: a past interval keeps the last plan made before it started. */
export interface TradingPlanTable {
  powerstation_id: number;
  interval_start: Epoch;
  kw: number;
  price: number;
  stored_kwh: number;
  revenue: number;
  planned_at: Epoch;
}

/** A backtest asked for on the Trading tab: run by a job, its figures kept as JSON (BacktestFigures). */
export interface TradingBacktestTable {
  id: Generated<number>;
  powerstation_id: number;
  organisation_id: number;
  first_day: string;
  last_day: string;
  period_start: Epoch;
  period_end: Epoch;
  requested_by: number;
  requested_at: Epoch;
  /** RUNNING, DONE or FAILED. */
  status: string;
  progress: number;
  result: string | null;
  error: string | null;
  finished_at: Epoch | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    trading_backtests: TradingBacktestTable;
    trading_policies: TradingPolicyTable;
    trading_plan: TradingPlanTable;
  }
}
