import type { Generated } from 'kysely';
import type { Epoch, Flag } from '../../db/schema.ts';

// This area's tables (migration 019); the augmentation adds them to the database's type.

export interface BillingItemTable {
  id: Generated<number>;
  organisation_id: number;
  event_id: number;
  event_kind: string;
  nmi: string;
  day: string;
  ts: Epoch;
  type: string;
  amount: number;
  rate: number;
  cost_cents: number;
  created_at: Epoch;
  /** A spot credit's two sides (migration 046): the spot value of the energy (AUD, positive earned) and the feed-in the bill already pays on it (AUD); null otherwise. */
  spot_value: number | null;
  feed_in_deduction: number | null;
}

export interface InvoiceTable {
  id: Generated<number>;
  organisation_id: number;
  number: string;
  period: string;
  issue_date: string;
  supplier_name: string;
  supplier_abn: string;
  recipient_name: string;
  subtotal_cents: number;
  gst_cents: number;
  total_cents: number;
  paid: Generated<Flag>;
  paid_at: Epoch | null;
  paid_by: number | null;
  created_at: Epoch;
}

export interface InvoiceLineTable {
  invoice_id: number;
  position: number;
  description: string;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    billing_items: BillingItemTable;
    invoices: InvoiceTable;
    invoice_lines: InvoiceLineTable;
  }
}
