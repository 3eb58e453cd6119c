import type { ExportStatus, ExportType } from '@vpp/shared/exports/schemas';
import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's table (migration 021); the augmentation adds it to the database's type.

export interface ExportJobTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  reference_id: string;
  task_type: ExportType;
  status: ExportStatus;
  params: string;
  metrics: string;
  powerstation_id: number | null;
  progress: Generated<number>;
  time_remaining_ms: number | null;
  files: string | null;
  error: string | null;
  created_at: Epoch;
  started_at: Epoch | null;
  finished_at: Epoch | null;
  expires_at: Epoch | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    export_jobs: ExportJobTable;
  }
}
