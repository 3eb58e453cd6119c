import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { type BillingInterval, type BillingItem, billingEventName } from '@vpp/shared/billing/schemas';
import { isIsoDate } from '@vpp/shared/plans/rules';
import { epochToLocalDate } from '@vpp/shared/time';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import * as repo from './billing.repo.ts';

/** The time zone of a caller without one set (the console's default, spec 1). */
export const BILLING_DEFAULT_ZONE = 'Australia/Sydney';

/** The caller's today, YYYY-MM-DD in their time zone. */
export const todayOf = (user: AuthUser, now = nowS()) => epochToLocalDate(now, user.row.timezone ?? BILLING_DEFAULT_ZONE);

/**
 * Refuses a range the schema let through but the caller's calendar does not: a date after their
 * today. (Malformed dates and a start after the end are the schema's 400s.)
 */
export function checkRange(user: AuthUser, q: { start: string; end: string }, now = nowS()): void {
  if (!isIsoDate(q.start)) throw badRequest(BILLING_MESSAGES.dateFormat('start'));
  if (!isIsoDate(q.end)) throw badRequest(BILLING_MESSAGES.dateFormat('end'));
  if (q.start > q.end) throw badRequest(BILLING_MESSAGES.startAfterEnd);
  const today = todayOf(user, now);
  if (q.start > today) throw badRequest(BILLING_MESSAGES.afterToday('start'));
  if (q.end > today) throw badRequest(BILLING_MESSAGES.afterToday('end'));
}

/** AUD from integer cents, exactly to 2 decimals. */
export const aud = (cents: number) => Number((Number(cents) / 100).toFixed(2));

/** A line item's type as shown: blank is a support request (spec 3 §3.10). */
export const shownType = (type: string) => (type.trim() ? type : BILLING_MESSAGES.supportRequest);

type ItemRow = {
  id: number;
  nmi: string;
  day: string;
  ts: number | string;
  type: string;
  amount: number;
  rate: number;
  cost_cents: number | string;
  event_kind: string;
  event_id: number;
};
const toItem = (r: ItemRow): BillingItem => ({
  id: r.id,
  nmi: r.nmi,
  day: r.day,
  ts: Number(r.ts),
  type: shownType(r.type),
  amount: r.amount,
  rate: r.rate,
  cost: aud(Number(r.cost_cents)),
  eventKind: r.event_kind as BillingItem['eventKind'],
  eventId: r.event_id,
  event: billingEventName(r.event_kind as BillingItem['eventKind'], r.event_id),
});

/** GET /billing/items: a page of the organisation's line items in [start, end], by day then NMI; with the range's totals. */
export async function listItems(ctx: AppContext, user: AuthUser, q: { start: string; end: string; limit: number; offset: number }) {
  checkRange(user, q);
  const totals = await repo.itemTotals(ctx.db, user.organisationId, q.start, q.end);
  const rows = await repo.itemPage(ctx.db, user.organisationId, q.start, q.end, q.limit, q.offset);
  return { items: rows.map(toItem), total: Number(totals.total), totalCost: aud(Number(totals.cents ?? 0)), eventCount: Number(totals.events) };
}

/** GET /billing/customers: distinct customers (NMIs) credited per interval of their items' local days. */
export async function customerCounts(ctx: AppContext, user: AuthUser, interval: BillingInterval) {
  const rows = await repo.customersPerInterval(ctx.db, ctx.dialect, user.organisationId, interval);
  return { interval, items: rows.map((r) => ({ date: r.date, customerCount: Number(r.customers) })) };
}

/** The last day of a YYYY-MM month, YYYY-MM-DD. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, '0')}`;
}

/** GET /billing/monthly: the organisation's credits by month of their local days, latest first. */
export async function monthly(ctx: AppContext, user: AuthUser) {
  const rows = await repo.monthlyTotals(ctx.db, user.organisationId);
  return {
    months: rows.map((r) => ({
      date: r.month,
      start: `${r.month}-01`,
      end: monthEnd(r.month),
      value: aud(Number(r.cents)),
      count: Number(r.count),
      eventCount: Number(r.events),
      customerCount: Number(r.customers),
    })),
  };
}

/** The dates from start to end (YYYY-MM-DD, inclusive). */
export function datesOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`), last = Date.parse(`${end}T00:00:00Z`); t <= last; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Keyset pages of the range's summary per customer (NMI order): the summary CSV. */
export async function* summaryPages(db: Database, orgId: number, start: string, end: string, size = 20000) {
  let after: string | null = null;
  for (;;) {
    const rows = await repo.summaryPage(db, orgId, start, end, after, size);
    if (!rows.length) return;
    yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].nmi;
  }
}

export type { ItemRow };
