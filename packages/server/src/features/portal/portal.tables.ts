import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface UsedTokenTable {
  id: string;
  used_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    used_tokens: UsedTokenTable;
  }
}
