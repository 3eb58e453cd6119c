import { endpointUrl } from '@vpp/shared/api/endpoint';
import { billingEndpoints as E } from '@vpp/shared/billing/endpoints';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { BILLING_SEARCH_PATH } from './billing-paths.ts';

export { BILLING_PATH, BILLING_SEARCH_PATH, INVOICES_PATH } from './billing-paths.ts';

/** The search page for a range (YYYY-MM-DD, inclusive), or without one. */
export const billingSearchPath = (range?: { start: string; end: string }) =>
  range ? `${BILLING_SEARCH_PATH}?start=${range.start}&end=${range.end}` : BILLING_SEARCH_PATH;

/** Money on screen: one format for every area (packages/shared format.ts). */
export { formatAud } from '@vpp/shared/format';

/** Energy in kWh to 2 decimals, rates in $/kWh to 4 (spec 3 §9). */
export const formatKwh = (v: number) => v.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A rate as money is shown: the sign before the dollar ('-$0.0066'), none when it rounds to zero. */
export function formatRate(v: number): string {
  const digits = Math.abs(v).toLocaleString('en-AU', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  return `${v < 0 && /[1-9]/.test(digits) ? '-' : ''}$${digits}`;
}

/** YYYY-MM-DD as the date picker shows it (dd/MM/yyyy). */
export const formatDay = (day: string) => day.split('-').reverse().join('/');

/** YYYY-MM as 'October 2026'. */
export function formatMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A line item's type as shown: a blank one is a support request (spec 3 §3.10). */
export const itemTypeLabel = (type: string) => (type.trim() === '' ? BILLING_MESSAGES.supportRequest : type);

/** The first and last day of the month of a date (YYYY-MM-DD). */
export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}
export function monthEnd(day: string): string {
  const [y, m] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${day.slice(0, 7)}-${String(last).padStart(2, '0')}`;
}

/** The Events CSV of a search: its line items from start to end. */
export const eventsCsvPath = (start: string, end: string) => endpointUrl(E.eventsCsv, { query: { start, end } });

/**
 * The Summary CSV of a search: from the start's month start to the end's month end (spec 3 §7), this
 * month's ending today (the server refuses a date after today, and nothing is credited after it).
 */
export function summaryCsvPath(start: string, end: string, today: string): string {
  const last = monthEnd(end);
  return endpointUrl(E.monthCsv, { query: { start: monthStart(start), end: last < today ? last : today } });
}
