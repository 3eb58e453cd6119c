import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

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

declare module '../../db/schema.ts' {
  interface DB {
    password_tokens: PasswordTokenTable;
  }
}
