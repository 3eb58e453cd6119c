import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface ApiKeyTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  key_name: string;
  key_hash: string;
  /** JSON list of the allowed entries as given (IPs, CIDR ranges, IPv4 with a subnet mask). */
  ip_whitelist: string;
  status: 'VALID' | 'REVOKED';
  /** JSON list of the permissions (registry names) the key may use, chosen at creation. */
  scopes: Generated<string>;
  /** JSON list of the key's OpenADR 3 scopes (migration 038), given by an administrator. */
  openadr_scopes: Generated<string>;
  created_at: Epoch;
  revoked_at: Epoch | null;
  last_used_at: Epoch | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    api_keys: ApiKeyTable;
  }
}
