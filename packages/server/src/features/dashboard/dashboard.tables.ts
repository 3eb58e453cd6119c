import type { Epoch } from '../../db/schema.ts';

// This area's table (migration 020); the augmentation adds it to the database's type.

export interface UserDashboardTable {
  user_id: number;
  /** The widgets as saved (JSON of the shared widget schema's output). */
  widgets_json: string;
  updated_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    user_dashboards: UserDashboardTable;
  }
}
