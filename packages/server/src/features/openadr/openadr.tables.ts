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
