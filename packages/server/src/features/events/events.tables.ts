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

declare module '../../db/schema.ts' {
  interface DB {
    events: EventTable;
  }
}
