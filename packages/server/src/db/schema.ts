import type { Generated, Insertable, Selectable } from 'kysely';

/** Epoch seconds, UTC. */
export type Epoch = number;
/** 0 or 1: the same on SQLite and PostgreSQL. */
export type Flag = number;

export interface OrganisationTable {
  id: Generated<number>;
  name: string;
  suborg_type: 'RETAILER' | 'NETWORK' | 'INSTALLER';
  created_at: Epoch;
}

export interface UserTable {
  id: Generated<number>;
  organisation_id: number;
  username: string;
  email: string;
  given_name: string;
  surname: string;
  password_hash: string | null;
  timezone: string | null;
  alert_email_frequency: string;
  mfa_enabled: Flag;
  totp_secret: string | null;
  totp_confirmed: Flag;
  totp_last_step: number | null;
  code_preference: string;
  active: Flag;
  created_at: Epoch;
  updated_at: Epoch;
  alert_digest_at: Epoch | null;
}

export interface UserPermissionTable {
  user_id: number;
  permission: string;
}

export interface CaptchaUsedTable {
  id: string;
  used_at: Epoch;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  status: 'pending' | 'done' | 'failed';
  run_at: Epoch;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: Epoch | null;
  last_error: string | null;
  unique_key: string | null;
  created_at: Epoch;
  finished_at: Epoch | null;
  /** 0–1, as the handler last reported it; null until it reports. */
  progress: number | null;
  /** JSON: what the job made (files in the file store, counts), set by the handler. */
  result: string | null;
}

export interface NodeTable {
  id: Generated<number>;
  /** The label the node was commissioned with; each organisation's own label is on its fleet membership. */
  field_label: string | null;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  lat: number;
  lng: number;
  timezone: string;
  nmi: string;
  network: string;
  region: string;
  serial_number: string;
  product: string;
  unit_state: 'COMMISSIONED' | 'NOT_COMMISSIONED';
  commissioned_at: Epoch | null;
  phases: number;
  solar_kw: number;
  inverter_kw: number;
  battery_kwh: number;
  battery_usable_kwh: number;
  battery_kw: number;
  inverter_brand: string;
  battery_brand: string | null;
  system_json: string;
  sim_json: string;
  last_contact: Epoch | null;
  connection_offline: Flag;
  created_at: Epoch;
}

export interface NodeSearchTable {
  node_id: number;
  search_text: string;
}

export interface FleetMemberTable {
  organisation_id: number;
  node_id: number;
  role: 'RETAILER' | 'NETWORK' | 'INSTALLER';
  /** This organisation's name for the site (spec 2: the node's site label). */
  site_label: string | null;
}

/** Issue 33 item 6: one stay of a node in an organisation's fleet (migration 044); left_at null while it stays. */
export interface FleetMembershipHistoryTable {
  organisation_id: number;
  node_id: number;
  joined_at: Epoch;
  left_at: Epoch | null;
}

export interface NodeEventTable {
  id: Generated<number>;
  node_id: number;
  ts: Epoch;
  event_type: string;
  description: string;
  duration: number | null;
}

export interface NodeCommandTable {
  id: Generated<number>;
  node_id: number;
  kind: string;
  start_ts: Epoch;
  end_ts: Epoch;
  params: string;
  source: string;
  status: 'PENDING' | 'ACCEPTED' | 'OPTED_OUT' | 'REJECTED' | 'CANCELLED';
  created_at: Epoch;
  responded_at: Epoch | null;
  /** When the outbox last published it to its device (null: not yet). */
  sent_at: Generated<Epoch | null>;
  /** Why the device refused it (REJECTED). */
  reason: Generated<string | null>;
  /** The organisation whose event gave it (null: stored before migration 035). */
  organisation_id: Generated<number | null>;
  /** Its rank among the commands directing the node's battery, 0 first (docs/precedence.md). */
  precedence: Generated<number>;
  /** The form last sent to the device: its end and followed windows, or `cancel` (null: never sent). */
  wire: Generated<string | null>;
  /** 1: its followed windows may have changed; the outbox looks at it again (migration 045). */
  revise: Generated<number>;
}

export interface DeviceCredentialTable {
  node_id: number;
  secret_hash: string;
  issued_at: Epoch;
}

export interface DeviceReadingTable {
  node_id: number;
  seq: number;
  ts: Epoch;
}

export interface DeviceStatusTable {
  node_id: number;
  state_json: string | null;
  /** When the connection began that state_json speaks for (the state's `ts`), null when the device does not say. */
  state_since: Generated<number | null>;
  rejected_reason: string | null;
  rejected_at: Epoch | null;
  rejected_count: Generated<number>;
  dropped_count: Generated<number>;
}

export interface SubmeterTable {
  id: number;
  node_id: number;
  name: string;
}

export interface SimStateTable {
  node_id: number;
  ts: Epoch;
  state_json: string;
}

export interface TelLatestTable {
  node_id: number;
  ts: Epoch;
  meter_p: number | null;
  solar_p: number | null;
  battery_p: number | null;
  house_p: number | null;
  voltage: number | null;
  soc: number | null;
  remaining: number | null;
}

/** One-time tokens (portal links, single-use downloads) that have been spent. */
export interface UsedTokenTable {
  id: string;
  used_at: Epoch;
}

/** A single-use download token (migration 019): only its SHA-256 is stored. */
export interface DownloadTokenTable {
  token_hash: string;
  user_id: number;
  organisation_id: number;
  /** The exact path and query (the token left out) it opens. */
  path: string;
  expires_at: Epoch;
  used_at: Epoch | null;
  created_at: Epoch;
}

export interface DB {
  organisations: OrganisationTable;
  users: UserTable;
  user_permissions: UserPermissionTable;
  captcha_used: CaptchaUsedTable;
  settings: SettingTable;
  nodes: NodeTable;
  node_search: NodeSearchTable;
  fleet_members: FleetMemberTable;
  fleet_membership_history: FleetMembershipHistoryTable;
  node_events: NodeEventTable;
  node_commands: NodeCommandTable;
  device_credentials: DeviceCredentialTable;
  device_readings: DeviceReadingTable;
  device_status: DeviceStatusTable;
  submeters: SubmeterTable;
  sim_state: SimStateTable;
  tel_latest: TelLatestTable;
  jobs: JobTable;
  used_tokens: UsedTokenTable;
  download_tokens: DownloadTokenTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type OrganisationRow = Selectable<OrganisationTable>;
