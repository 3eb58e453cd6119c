import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables (migration 038); the augmentation adds them to the database's type. JSON
// columns hold OpenADR valuesMap lists, object operations and report resources as sent.

export interface OadrVenTable {
  id: Generated<number>;
  organisation_id: number;
  /** The API key (OAuth client) that created the VEN and writes for it. */
  client_key_id: number;
  ven_name: string;
  attributes: string;
  targets: string;
  created_at: Epoch;
  modified_at: Epoch;
}

export interface OadrResourceTable {
  id: Generated<number>;
  ven_id: number;
  resource_name: string;
  attributes: string;
  targets: string;
  created_at: Epoch;
  modified_at: Epoch;
}

export interface OadrVenVppTable {
  ven_id: number;
  powerstation_id: number;
}

export interface OadrSubscriptionTable {
  id: Generated<number>;
  organisation_id: number;
  client_key_id: number;
  client_name: string;
  program_id: string;
  object_operations: string;
  targets: string;
  status: 'ACTIVE' | 'SUSPENDED';
  failing_since: Epoch | null;
  last_delivery_at: Epoch | null;
  last_delivery_result: string | null;
  created_at: Epoch;
  modified_at: Epoch;
}

export interface OadrReportTable {
  id: Generated<number>;
  organisation_id: number;
  client_key_id: number;
  program_id: string;
  event_id: string;
  client_name: string;
  report_name: string | null;
  payload_descriptors: string;
  resources: string;
  created_at: Epoch;
  modified_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    oadr_vens: OadrVenTable;
    oadr_resources: OadrResourceTable;
    oadr_ven_vpps: OadrVenVppTable;
    oadr_subscriptions: OadrSubscriptionTable;
    oadr_reports: OadrReportTable;
  }
}

/** The console as a VEN of another VTN (migration 048): the connection, one row per VTN URL. */
export interface OadrVtnStateTable {
  vtn_url: string;
  ven_id: string | null;
  /** The programs subscribed to (JSON list of program ids). */
  subscribed: Generated<string>;
  last_poll_at: Epoch | null;
  last_ok_at: Epoch | null;
  last_error: string | null;
  lease_until: Epoch | null;
}

/** A capacity-limit event received from the VTN and what it became. */
export interface OadrVtnEventTable {
  id: Generated<number>;
  vtn_url: string;
  organisation_id: number;
  vtn_event_id: string;
  program_id: string;
  event_name: string | null;
  /** The VTN's modificationDateTime as received: a change moves it. */
  modified: string;
  payload_type: string;
  status: 'APPLIED' | 'NOT_APPLIED' | 'DELETED';
  detail: string | null;
  curtailment_ids: Generated<string>;
  report_id: string | null;
  reported_until: Epoch | null;
  end_time: Epoch | null;
  received_at: Epoch;
  updated_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    oadr_vtn_state: OadrVtnStateTable;
    oadr_vtn_events: OadrVtnEventTable;
  }
}
