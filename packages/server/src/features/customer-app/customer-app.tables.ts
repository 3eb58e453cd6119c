import type { Epoch } from '../../db/schema.ts';

// This area's table (migration 052); the augmentation adds it to the database's type.

/** What became of one node's copy of an event's customer message in the home's app. */
export interface MessageReceiptTable {
  event_id: number;
  node_id: number;
  delivered_at: Epoch | null;
  read_at: Epoch | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    message_receipts: MessageReceiptTable;
  }
}
