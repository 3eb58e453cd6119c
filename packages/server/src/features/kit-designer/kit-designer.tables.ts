import type { Generated } from 'kysely';

// This area's tables (migration 014); the augmentation adds them to the database's type.

export interface KitBatteryTypeTable {
  id: number;
  code: string;
  display_name: string;
  manufacturer: string;
  usable_capacity_wh: number;
  image_url: string;
}

export interface KitInverterTypeTable {
  id: number;
  code: string;
  display_name: string;
  manufacturer: string;
  all_in_one: number;
  /** 1, 0, or null: solar on its own inverter, phases chosen. */
  pv_compatible: number | null;
  phases: number;
  rated_power_w: number;
  image_url: string;
}

export interface KitInverterBatteryTable {
  inverter_type_id: number;
  battery_type_id: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    kit_battery_types: KitBatteryTypeTable;
    kit_inverter_types: KitInverterTypeTable;
    kit_inverter_batteries: KitInverterBatteryTable;
  }
  interface OrganisationTable {
    /** Where the organisation's kit orders go besides the sender; null: only to the sender. */
    ordering_email: Generated<string | null>;
  }
}
