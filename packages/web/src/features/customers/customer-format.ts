import { CAPABILITY_LABELS, type Capability, type Customer } from '@vpp/shared/customers/schemas';

export { CUSTOMER_LIST_PATH, customerPath } from './customer-paths.ts';

/** The install address on one line: the street line, then the suburb line (or suburb, state and postcode when there is none). */
export function installAddress(c: Pick<Customer, 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postcode'>): string {
  const second = c.addressLine2.trim() || `${c.city} ${c.state} ${c.postcode}`.trim();
  return [c.addressLine1.trim(), second].filter(Boolean).join(', ');
}

export const capabilityLabel = (c: Capability) => CAPABILITY_LABELS[c];

const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Integer cents as AUD with 2 decimals (spec 3 §9); a credit shows a minus sign. */
export const formatCents = (cents: number) => aud.format(cents / 100);

/** A month (YYYY-MM) as 'November 2026'. */
export function formatMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** A local date (YYYY-MM-DD) as 14/10/2026, as the console shows dates. */
export const formatDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
