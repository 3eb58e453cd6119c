import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

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

/** Who did what to an event, and when; never changed afterwards. */
export interface EventAuditTable {
  id: Generated<number>;
  event_id: number;
  action: string;
  user_id: number | null;
  at: Epoch;
  detail: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    events: EventTable;
    event_audit: EventAuditTable;
  }
}
