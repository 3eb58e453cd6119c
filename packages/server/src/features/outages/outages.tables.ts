import type { Epoch } from '../../db/schema.ts';

// This area's tables (migration 016); the augmentation adds them to the database's type.

export interface GridOutageTable {
  event_id: number;
  outage_reason: string;
  message_title: string | null;
  customer_message: string | null;
  created_by: number | null;
  orders_sent_at: Epoch | null;
}

export interface OutageNodeTable {
  event_id: number;
  node_id: number;
  prepare_from: Epoch | null;
  orders_sent_at: Epoch | null;
  opted_out_at: Epoch | null;
  opted_out_by: string | null;
}

export interface NodeAppTokenTable {
  node_id: number;
  token_hash: string;
  created_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    grid_outages: GridOutageTable;
    outage_nodes: OutageNodeTable;
    node_app_tokens: NodeAppTokenTable;
  }
}
