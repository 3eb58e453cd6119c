import { CAPABILITY_LABELS, type Capability, type Customer } from '@vpp/shared';

/** The customer routes of spec 3 §2.1: a customer is named by its NMI. */
export const CUSTOMER_LIST_PATH = '/customers/manage';
export const customerPath = (nmi: string) => `${CUSTOMER_LIST_PATH}/${encodeURIComponent(nmi)}`;

/** The install address on one line: street, suburb, state and postcode. */
export function installAddress(c: Pick<Customer, 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postcode'>): string {
  const street = [c.addressLine1, c.addressLine2].filter((s) => s.trim()).join(', ');
  return [street, `${c.city} ${c.state} ${c.postcode}`.trim()].filter(Boolean).join(', ');
}

export const capabilityLabel = (c: Capability) => CAPABILITY_LABELS[c];

const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Integer cents as AUD with 2 decimals (spec 3 §9); a credit shows a minus sign. */
export const formatCents = (cents: number) => aud.format(cents / 100);

/** YYYY-MM-DD as dd/MM/yyyy (spec 3 §9's date format). */
export const formatIsoDate = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

/** A month (YYYY-MM) as 'November 2026'. */
export function formatMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}
