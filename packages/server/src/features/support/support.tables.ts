import type { SupportCategory } from '@vpp/shared/support/schemas';
import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface SupportRequestTable {
  id: Generated<number>;
  reference: string;
  organisation_id: number;
  user_id: number;
  subject: string;
  category: SupportCategory;
  node_id: number | null;
  node_nmi: string | null;
  node_serial: string | null;
  description: string;
  contact_name: string;
  contact_email: string;
  /** '' when none was given. */
  contact_phone: string;
  created_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    support_requests: SupportRequestTable;
  }
}
