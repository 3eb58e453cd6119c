import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface RefreshTokenTable {
  id: string;
  user_id: number;
  family: string;
  token_hash: string;
  expires_at: Epoch;
  used_at: Epoch | null;
  revoked_at: Epoch | null;
  created_at: Epoch;
}

export interface RememberedDeviceTable {
  id: string;
  user_id: number;
  expires_at: Epoch;
  revoked_at: Epoch | null;
  created_at: Epoch;
}

export interface LoginFailureTable {
  id: Generated<number>;
  key: string;
  at: Epoch;
}

/** A half-signed-in (two-factor pending) token that has been given a code, by its jti. */
export interface MfaPendingTokenTable {
  id: string;
  failures: Generated<number>;
  used_at: Epoch | null;
  expires_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    mfa_pending_tokens: MfaPendingTokenTable;
    refresh_tokens: RefreshTokenTable;
    remembered_devices: RememberedDeviceTable;
    login_failures: LoginFailureTable;
  }
}
