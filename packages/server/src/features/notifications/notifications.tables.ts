import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

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

declare module '../../db/schema.ts' {
  interface DB {
    notifications: NotificationTable;
  }
}
