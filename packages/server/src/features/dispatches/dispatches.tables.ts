import type { Epoch } from '../../db/schema.ts';

// This area's tables (migrations 012 and 013); the augmentation adds them to the database's type.

export interface DispatchTable {
  event_id: number;
  real_power_p: number;
  power_factor: number | null;
  power_factor_lead_lag: string | null;
  strategy: string;
  message_title: string | null;
  customer_message: string | null;
  created_by: number | null;
  orders_sent_at: Epoch | null;
  checked_at: Epoch | null;
  /** What made the dispatch when no one did by hand: 'AUTOMATIC' for a trading plan's (issue 35); null for a person's. */
  origin: string | null;
}

export interface DispatchNodeTable {
  event_id: number;
  node_id: number;
  share_kw: number;
  intervals: string;
  orders_sent_at: Epoch | null;
  dropped_at: Epoch | null;
  message_sent_at: Epoch | null;
}

export interface DispatchSettlementTable {
  event_id: number;
  settled_at: Epoch;
  period_start: Epoch;
  period_end: Epoch;
  cost: number;
  energy_kwh: number;
  charged_kwh: number;
  discharged_kwh: number;
  unpriced_kwh: number;
  buy_price: number | null;
  sell_price: number | null;
  nodes_responding: number;
  nodes_complete: number;
  coverage: number;
  /** Migration 033 (issue 33 item 1): the request's energy and its split, and the baseline's accuracy. */
  requested_kwh: number;
  baseline_kwh: number;
  measured_kwh: number;
  rejected_kwh: number;
  not_delivered_kwh: number;
  baseline_error: number | null;
  baseline_error_nodes: number;
  /** A RERT dispatch's contract payments (AUD) and the customers' share; null for a dispatch. */
  rert_availability: number | null;
  rert_pre_activation: number | null;
  rert_activation: number | null;
  rert_usage: number | null;
  rert_customer_share: number | null;
}

/** AEMO's instruction and the reserve contract of a RERT dispatch (migration 033). */
export interface RertActivationTable {
  event_id: number;
  instruction_id: string;
  notice_category: string;
  lor_condition: string;
  pre_activated_at: Epoch;
  activated_at: Epoch;
  contract_ref: string;
  contract_mw: number;
  availability_rate: number;
  pre_activation_rate: number;
  activation_rate: number;
  usage_rate: number;
  customer_share: number;
}

export interface DispatchSettlementNodeTable {
  event_id: number;
  node_id: number;
  day_start: Epoch;
  region: string | null;
  delivered_kwh: number;
  /** The node's baseline energy at the meter over the same intervals (migration 033; null before it). */
  baseline_kwh: number | null;
  value: number | null;
  complete: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    dispatch_settlements: DispatchSettlementTable;
    dispatch_settlement_nodes: DispatchSettlementNodeTable;
    dispatches: DispatchTable;
    dispatch_nodes: DispatchNodeTable;
    rert_activations: RertActivationTable;
  }
}
