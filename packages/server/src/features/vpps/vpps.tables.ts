import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

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

/** One stay of a node in a manual VPP's list (migration 047): from `joined_at` to `left_at`, null while it stays. */
export interface VppMembershipHistoryTable {
  powerstation_id: number;
  node_id: number;
  joined_at: Epoch;
  left_at: Epoch | null;
}

/**
 * A VPP's node count and nameplate sums (migration 055), as of `summed_version`; the database's
 * triggers bump `version` on every change to its members or their nameplates.
 */
export interface PowerstationNameplateTable {
  powerstation_id: number;
  version: Generated<number>;
  summed_version: Generated<number>;
  nodes: Generated<number>;
  battery_kwh: Generated<number>;
  inverter_kw: Generated<number>;
  battery_kw: Generated<number>;
}

export interface DuidUnitTable {
  duid: string;
  serial_number: string;
}

declare module '../../db/schema.ts' {
  interface DB {
    powerstations: PowerstationTable;
    powerstation_postcodes: PowerstationPostcodeTable;
    powerstation_nameplates: PowerstationNameplateTable;
    vpp_nodes: VppNodeTable;
    vpp_membership_history: VppMembershipHistoryTable;
    duid_units: DuidUnitTable;
  }
}
