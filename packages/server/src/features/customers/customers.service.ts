import { TZDate } from '@date-fns/tz';
import { type BillingEventKind, billingEventName } from '@vpp/shared/billing/schemas';
import type { SuborgType } from '@vpp/shared/constants';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { networkOfNmi } from '@vpp/shared/customers/networks';
import type { BillEstimate, Customer, CustomerDetail } from '@vpp/shared/customers/schemas';
import type { PlanPrices } from '@vpp/shared/plans/schemas';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { findPlan, planVersions, presentPlan } from '../plans/index.ts';
import { estimateBill, monthOf, monthWindow, type PriceSegment, usageStart } from './customers.bill.ts';
import { type CapabilityHardware, capabilityHistory, currentCapabilities } from './customers.capabilities.ts';
import { isPublicHoliday } from './customers.holidays.ts';
import * as repo from './customers.repo.ts';

// Customers (spec 3 §2.8, §3.8): the organisation's fleet by NMI, with what each can take part in,
// its plan (retailers) or its network (networks), and the bill its plan gives (issue 14, item 6).

/** A local date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(ts: number, timezone: string): string {
  const d = new TZDate(ts * 1000, timezone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const hardwareOf = (r: repo.CustomerRow): CapabilityHardware => ({
  commissioned: r.unit_state === 'COMMISSIONED' && r.commissioned_at !== null,
  commissionedDate: r.commissioned_at === null ? null : localDate(Number(r.commissioned_at), r.timezone),
  battery: Number(r.battery_kwh) > 0,
  submeters: Boolean(r.has_submeters),
});

/** "12 King Street" → number and name (a street without a leading number keeps it all as its name). */
function splitStreet(street: string): { streetNumber: string; streetName: string } {
  const m = /^(\S*\d\S*)\s+(.+)$/.exec(street.trim());
  return m ? { streetNumber: m[1], streetName: m[2] } : { streetNumber: '', streetName: street.trim() };
}

/**
 * The API's customer, with the columns of the caller's organisation type (spec 3 §2.8, §6): the
 * plan for RETAILER only, network information for NETWORK only (never for installers).
 */
export function presentCustomer(r: repo.CustomerRow, type: SuborgType): Customer {
  const retailer = type === 'RETAILER';
  const network = networkOfNmi(r.nmi, r.state);
  return {
    nmi: r.nmi,
    deploymentUid: r.id,
    ...splitStreet(r.street),
    city: r.suburb,
    state: r.state,
    postcode: r.postcode,
    addressLine1: r.street,
    addressLine2: `${r.suburb} ${r.state} ${r.postcode}`,
    lat: Number(r.lat),
    long: Number(r.lng),
    capacity: Number(r.battery_kwh),
    maxPower: Number(r.inverter_kw),
    agreementVersion: r.agreement_version === null ? null : Number(r.agreement_version),
    agreementDate: r.agreement_date,
    installationStatus: r.unit_state !== 'COMMISSIONED' ? 'NOT_COMMISSIONED' : r.last_contact === null ? 'AWAITING_CONTACT' : 'COMMISSIONED',
    capabilities: currentCapabilities(hardwareOf(r), r.agreement_version === null ? null : Number(r.agreement_version)),
    tariff: retailer && r.plan_name !== null ? { name: r.plan_name, discount: 0 } : null,
    currentTariff: retailer && r.plan_id !== null ? { uid: Number(r.plan_id), name: r.plan_name ?? '', planCode: r.plan_code ?? '', discount: 0 } : null,
    information:
      type === 'NETWORK'
        ? {
            network: network ? { uid: network.uid, name: network.name } : null,
            region: r.region,
            phases: Number(r.phases),
            inverterKw: Number(r.inverter_kw),
            solarKw: Number(r.solar_kw),
          }
        : null,
  };
}

/** The current discount of each plan (its latest version's), for the tariff fields. */
async function withDiscounts(ctx: AppContext, list: Customer[]): Promise<Customer[]> {
  const ids = [...new Set(list.flatMap((c) => (c.currentTariff ? [c.currentTariff.uid] : [])))];
  if (!ids.length) return list;
  const versions = await planVersions(ctx.db, ids);
  const discount = (id: number) => versions.get(id)?.at(-1)?.prices.discount ?? 0;
  return list.map((c) =>
    c.currentTariff && c.tariff
      ? {
          ...c,
          tariff: { ...c.tariff, discount: discount(c.currentTariff.uid) },
          currentTariff: { ...c.currentTariff, discount: discount(c.currentTariff.uid) },
        }
      : c,
  );
}

export async function listCustomers(ctx: AppContext, user: AuthUser, q: repo.CustomerFilters & { limit: number; offset: number }) {
  const type = user.row.suborg_type;
  if (q.tariff !== undefined && type !== 'RETAILER') throw badRequest(CUSTOMER_MESSAGES.tariffFilterRetailerOnly);
  const [{ rows, total }, withoutCapabilities] = await Promise.all([
    repo.listCustomers(ctx.db, user.organisationId, q, q.limit, q.offset),
    repo.countWithoutCapabilities(ctx.db, user.organisationId),
  ]);
  return {
    customers: await withDiscounts(
      ctx,
      rows.map((r) => presentCustomer(r, type)),
    ),
    total,
    withoutCapabilities,
    columns: { retailPlan: type === 'RETAILER', information: type === 'NETWORK' },
  };
}

/**
 * A page of the fleet's customers by NMI, as the API presents them to an organisation of `type`
 * (the customer export's rows).
 */
export async function customerPage(ctx: AppContext, orgId: number, type: SuborgType, limit: number, offset: number) {
  const { rows, total } = await repo.listCustomers(ctx.db, orgId, {}, limit, offset);
  return {
    customers: await withDiscounts(
      ctx,
      rows.map((r) => presentCustomer(r, type)),
    ),
    total,
  };
}

async function requireCustomer(ctx: AppContext, user: AuthUser, nmi: string) {
  const row = await repo.findCustomer(ctx.db, user.organisationId, nmi);
  if (!row) throw notFound('customer');
  return row;
}

export async function customerDetail(ctx: AppContext, user: AuthUser, nmi: string): Promise<CustomerDetail> {
  const row = await requireCustomer(ctx, user, nmi);
  const type = user.row.suborg_type;
  const [agreements, plans, subMeters] = await Promise.all([
    repo.agreementsOf(ctx.db, user.organisationId, row.id),
    type === 'RETAILER' ? repo.planHistory(ctx.db, user.organisationId, row.id) : Promise.resolve([]),
    repo.submetersOf(ctx.db, row.id),
  ]);
  const [customer] = await withDiscounts(ctx, [presentCustomer(row, type)]);
  return {
    ...customer,
    contracts: [
      ...agreements.map((a) => ({ contractName: `Customer Agreement v${a.version}`, startDate: a.signed_date, endDate: a.ended_date })),
      ...plans.map((p) => ({ contractName: p.name, startDate: p.start_date, endDate: p.end_date })),
    ].sort((a, b) => a.startDate.localeCompare(b.startDate)),
    capabilityHistory: capabilityHistory(hardwareOf(row), agreements),
    timezone: row.timezone,
    subMeters,
  };
}

/** Plans and bills are a retailer's: other organisations hold no plans for their customers. */
function requireRetailer(user: AuthUser) {
  if (user.row.suborg_type !== 'RETAILER') throw new ApiError(403, 'forbidden', CUSTOMER_MESSAGES.planRetailerOnly);
}

export async function customerPlan(ctx: AppContext, user: AuthUser, nmi: string) {
  const row = await requireCustomer(ctx, user, nmi);
  requireRetailer(user);
  if (row.plan_id === null) return { plan: null, since: null, versionStartDate: null };
  const found = await findPlan(ctx.db, user.organisationId, { id: Number(row.plan_id) });
  if (!found) return { plan: null, since: null, versionStartDate: null };
  const plan = presentPlan(found.plan, found.versions);
  const today = localDate(nowS(), row.timezone);
  const applying = [...plan.versions].reverse().find((v) => v.startDate <= today) ?? plan.versions[0];
  return { plan, since: row.plan_since, versionStartDate: applying.startDate };
}

/** The prices over [fromDate, toDate): each plan held, cut by its versions. */
export function segmentsOf(
  held: readonly { plan_id: number; start_date: string; end_date: string | null }[],
  versions: ReadonlyMap<number, readonly { start_date: string; prices: Omit<PlanPrices, 'startDate'> }[]>,
): PriceSegment[] {
  const out: PriceSegment[] = [];
  const min = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);
  for (const h of held) {
    const list = versions.get(h.plan_id) ?? [];
    list.forEach((v, i) => {
      const start = v.start_date > h.start_date ? v.start_date : h.start_date;
      const end = min(h.end_date, list[i + 1]?.start_date ?? null);
      if (end !== null && end <= start) return;
      out.push({ startDate: start, endDate: end, prices: { ...v.prices, startDate: v.start_date } });
    });
  }
  return out.sort((a, b) => a.startDate.localeCompare(b.startDate));
}

/** A month's bill estimate for a customer; null when no plan applied in it. */
async function monthBill(ctx: AppContext, orgId: number, row: repo.CustomerRow, month: string, now: number): Promise<BillEstimate | null> {
  const [from, end] = monthWindow(month, row.timezone);
  const to = Math.min(end, now - (now % 300));
  if (to <= from) return null;
  const held = await repo.planHistory(ctx.db, orgId, row.id, { fromDate: `${month}-01`, toDate: localDate(end, row.timezone) });
  if (!held.length) return null;
  const segments = segmentsOf(held, await planVersions(ctx.db, [...new Set(held.map((h) => h.plan_id))]));
  const intervals = await repo.meteredIntervals(ctx.telemetry, row.id, usageStart(from, row.timezone, segments), to);
  const bill = estimateBill({ month, timezone: row.timezone, from, to, segments, intervals, isHoliday: (date) => isPublicHoliday(row.state, date) });
  // The grid credits of the same days, beside the retail lines: the customer sees both sides of each kWh.
  const credits = await repo.gridCredits(ctx.db, orgId, row.nmi, `${month}-01`, localDate(to - 1, row.timezone), to);
  const gridCreditCents = credits.reduce((sum, c) => sum + c.cost_cents, 0);
  return {
    ...bill,
    partial: to < end,
    gridCredits: credits.map((c) => ({
      event: billingEventName(c.event_kind as BillingEventKind, c.event_id),
      eventKind: c.event_kind as BillingEventKind,
      eventId: c.event_id,
      day: c.day,
      type: c.type,
      amount: c.amount,
      rate: c.rate,
      cents: c.cost_cents,
    })),
    gridCreditCents,
    netCents: bill.totalCents - gridCreditCents,
  };
}

/** This month so far and last month, under the plans the customer held (issue 14, item 6). */
export async function billEstimate(ctx: AppContext, user: AuthUser, nmi: string, now = nowS()) {
  const row = await requireCustomer(ctx, user, nmi);
  requireRetailer(user);
  const current = monthOf(now, row.timezone);
  const [y, m] = current.split('-').map(Number);
  const last = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  return {
    plan: row.plan_id === null ? null : { uid: Number(row.plan_id), name: row.plan_name ?? '', planCode: row.plan_code ?? '' },
    current: await monthBill(ctx, user.organisationId, row, current, now),
    last: await monthBill(ctx, user.organisationId, row, last, now),
  };
}
