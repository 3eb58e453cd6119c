import type { Generated, Insertable, Selectable } from 'kysely';

/** Epoch seconds, UTC. */
type Epoch = number;
/** 0 or 1: the same on SQLite and PostgreSQL. */
type Flag = number;

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

export interface RefreshTokenTable {
  id: string;
  user_id: number;
  family: string;
  token_hash: string;
  expires_at: Epoch;
  used_at: Epoch | null;
  revoked_at: Epoch | null;
  created_at: Epoch;
}

export interface RememberedDeviceTable {
  id: string;
  user_id: number;
  expires_at: Epoch;
  revoked_at: Epoch | null;
  created_at: Epoch;
}

export interface CaptchaUsedTable {
  id: string;
  used_at: Epoch;
}

export interface LoginFailureTable {
  id: Generated<number>;
  key: string;
  at: Epoch;
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

export interface PasswordTokenTable {
  id: string;
  user_id: number;
  purpose: 'reset' | 'welcome';
  token_hash: string;
  expires_at: Epoch;
  used_at: Epoch | null;
  disavowed_at: Epoch | null;
  requested_from: string | null;
  created_at: Epoch;
}

export interface ApiKeyTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  key_name: string;
  key_hash: string;
  /** JSON list of the allowed entries as given (IPs, CIDR ranges, IPv4 with a subnet mask). */
  ip_whitelist: string;
  status: 'VALID' | 'REVOKED';
  created_at: Epoch;
  revoked_at: Epoch | null;
  last_used_at: Epoch | null;
}

export interface NotificationTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  summary: string;
  /** Markdown. */
  body: string;
  created_at: Epoch;
  read_at: Epoch | null;
  emailed_at: Epoch | null;
}

export interface NodeTable {
  id: Generated<number>;
  site_label: string | null;
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
  status: 'PENDING' | 'ACCEPTED' | 'OPTED_OUT' | 'CANCELLED';
  created_at: Epoch;
  responded_at: Epoch | null;
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

export interface PowerstationTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  type: 'STATIC' | 'DYNAMIC' | 'FCAS';
  /** The state of a DYNAMIC VPP filtered by state; its postcodes are in powerstation_postcodes. */
  state: string | null;
  /** The DUID of an FCAS VPP. */
  duid: string | null;
  created_at: Epoch;
  updated_at: Epoch;
}

export interface PowerstationPostcodeTable {
  powerstation_id: number;
  postcode: string;
}

export interface VppNodeTable {
  powerstation_id: number;
  node_id: number;
}

export interface DuidUnitTable {
  duid: string;
  serial_number: string;
}

export interface EventTable {
  id: Generated<number>;
  organisation_id: number;
  powerstation_id: number | null;
  type: string;
  start_time: Epoch;
  duration: number;
  cancelled_at: Epoch | null;
  created_at: Epoch;
}

export interface UsedTokenTable {
  id: string;
  used_at: Epoch;
}

export interface DB {
  organisations: OrganisationTable;
  users: UserTable;
  user_permissions: UserPermissionTable;
  refresh_tokens: RefreshTokenTable;
  remembered_devices: RememberedDeviceTable;
  captcha_used: CaptchaUsedTable;
  login_failures: LoginFailureTable;
  settings: SettingTable;
  nodes: NodeTable;
  node_search: NodeSearchTable;
  fleet_members: FleetMemberTable;
  node_events: NodeEventTable;
  node_commands: NodeCommandTable;
  submeters: SubmeterTable;
  sim_state: SimStateTable;
  tel_latest: TelLatestTable;
  used_tokens: UsedTokenTable;
  jobs: JobTable;
  password_tokens: PasswordTokenTable;
  api_keys: ApiKeyTable;
  notifications: NotificationTable;
  powerstations: PowerstationTable;
  powerstation_postcodes: PowerstationPostcodeTable;
  vpp_nodes: VppNodeTable;
  duid_units: DuidUnitTable;
  events: EventTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type OrganisationRow = Selectable<OrganisationTable>;
