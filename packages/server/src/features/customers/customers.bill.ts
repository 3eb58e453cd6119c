import { TZDate, tzOffset, tzScan } from '@date-fns/tz';
import type { BillEstimate, BillLine } from '@vpp/shared/customers/schemas';
import type { PlanDay } from '@vpp/shared/plans/constants';
import { periodMinutes } from '@vpp/shared/plans/rules';
import type { PlanPrices, PlanRate } from '@vpp/shared/plans/schemas';

// The bill a plan gives (issue 14, item 6): one pure function from a customer's metered 5-minute
// import and export, its plan's prices over the month and its state's public holidays, to a
// month's bill in integer cents with GST apart.

/** Import and export of one 5-minute bucket starting at ts (epoch seconds), kWh. */
export interface MeteredInterval {
  ts: number;
  importKwh: number;
  exportKwh: number;
}

/** The prices that apply over [startDate, endDate) (local dates; endDate null: onwards), and what to call them. */
export interface PriceSegment {
  startDate: string;
  endDate: string | null;
  prices: PlanPrices;
}

export interface BillInput {
  /** YYYY-MM. */
  month: string;
  timezone: string;
  /** The estimate covers [from, to): the local month, or its start to now. */
  from: number;
  to: number;
  segments: readonly PriceSegment[];
  /**
   * Sorted by ts. Buckets before `from` (back to the start of the block reset period that holds
   * `from`, see usageStart) count toward the blocks only.
   */
  intervals: readonly MeteredInterval[];
  /** Whether a local date (YYYY-MM-DD) is a public holiday of the customer's state. */
  isHoliday: (date: string) => boolean;
}

/** The retail part of a bill estimate: what the plan charges; the grid credits are set beside it by the service. */
export type RetailBill = Omit<BillEstimate, 'gridCredits' | 'gridCreditCents' | 'netCents'>;

const DAY_CODES: readonly PlanDay[] = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const GST = 0.1;
const DEMAND_WINDOW_S = 1800;

/** Dollars to integer cents, free of binary fractions (0.285 × 100 is 28.499999…). */
export const toCents = (dollars: number) => Math.round(Math.round(dollars * 1e8) / 1e6);

/** [from, to) of a local month in a time zone. */
export function monthWindow(month: string, timezone: string): [number, number] {
  const [y, m] = month.split('-').map(Number);
  return [new TZDate(y, m - 1, 1, timezone).getTime() / 1000, new TZDate(y, m, 1, timezone).getTime() / 1000];
}

/** The local month (YYYY-MM) holding an instant. */
export function monthOf(ts: number, timezone: string): string {
  const d = new TZDate(ts * 1000, timezone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/**
 * UTC offsets (minutes) over [start, end): the offset at start and each change after it, from the
 * time zone database; a lookup that walks forward with sorted times.
 */
function offsets(timezone: string, start: number, end: number) {
  const changes = tzScan(timezone, { start: new Date(start * 1000), end: new Date(end * 1000) }).map((c) => ({
    ts: c.date.getTime() / 1000,
    offset: c.offset,
  }));
  const steps = [{ ts: -Infinity, offset: tzOffset(timezone, new Date(start * 1000)) }, ...changes];
  let i = 0;
  return (ts: number) => {
    while (i + 1 < steps.length && steps[i + 1].ts <= ts) i++;
    while (i > 0 && steps[i].ts > ts) i--;
    return steps[i].offset;
  };
}

const isoOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The key of the block reset period a local day falls in. */
function resetKey(reset: PlanPrices['resetPeriod'], day: number, date: string): string {
  switch (reset) {
    case 'DAILY':
      return date;
    case 'WEEKLY':
      // Weeks start on Monday (day 0 of the epoch was a Thursday).
      return `W${day - ((day + 3) % 7)}`;
    case 'MONTHLY':
      return date.slice(0, 7);
    case 'QUARTERLY':
      return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3)}`;
    default:
      return 'all';
  }
}

/**
 * Where to start reading metered data so that the blocks of the reset period holding `from` count
 * what came before it: the local start of that day, week (Monday), month or quarter.
 */
export function usageStart(from: number, timezone: string, segments: readonly PriceSegment[]): number {
  const d = new TZDate(from * 1000, timezone);
  let earliest = from;
  for (const s of segments) {
    const reset = s.prices.resetPeriod;
    if (!reset || reset === 'DAILY' || reset === 'MONTHLY') continue;
    const start =
      reset === 'WEEKLY'
        ? new TZDate(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7), timezone)
        : new TZDate(d.getFullYear(), d.getMonth() - (d.getMonth() % 3), 1, timezone);
    earliest = Math.min(earliest, start.getTime() / 1000);
  }
  return earliest;
}

/** The rate a period list gives at a local day and minute, or null when no period covers it. */
function periodRate(rates: readonly PlanRate[], dayCode: PlanDay, minute: number): PlanRate | null {
  for (const r of rates)
    for (const p of r.periods) {
      if (!p.applicableDays.includes(dayCode)) continue;
      const spans = periodMinutes(p.startTime, p.endTime) ?? [];
      if (spans.some(([s, e]) => minute >= s && minute < e)) return r;
    }
  return null;
}

const listsHolidays = (rates: readonly PlanRate[]) => rates.some((r) => r.periods.some((p) => p.applicableDays.includes('PUBLIC_HOLIDAYS')));

/**
 * The day a period list reads for a date: on a public holiday, PUBLIC_HOLIDAYS when the list names
 * it (periods for other days then do not apply), otherwise the weekday.
 */
const dayCodeOf = (weekday: number, holiday: boolean, rates: readonly PlanRate[]): PlanDay =>
  holiday && listsHolidays(rates) ? 'PUBLIC_HOLIDAYS' : DAY_CODES[weekday];

/** Energy priced across a rate's blocks, from `before` kWh already used in the reset period. */
function blockCost(blocks: PlanRate['blocks'], before: number, kwh: number, out: number[], kwhOut: number[]): void {
  let at = before;
  let left = kwh;
  for (let j = 0; j < blocks.length && left > 0; j++) {
    const end = j + 1 < blocks.length ? blocks[j + 1].onset : Infinity;
    if (at >= end) continue;
    const used = Math.min(left, end - Math.max(at, blocks[j].onset));
    out[j] += used * blocks[j].price;
    kwhOut[j] += used;
    left -= used;
    at += used;
  }
}

/** A demand charge: the peak (kW) priced across the blocks (kW onsets, $/kW/day), times the days. */
function demandCost(blocks: PlanRate['blocks'], peak: number, days: number): number {
  let dollars = 0;
  for (let j = 0; j < blocks.length; j++) {
    const end = j + 1 < blocks.length ? blocks[j + 1].onset : Infinity;
    const kw = Math.max(0, Math.min(peak, end) - blocks[j].onset);
    dollars += kw * blocks[j].price * days;
  }
  return dollars;
}

interface SegmentTally {
  segment: PriceSegment;
  /** Usage dollars and kWh by rate and block. */
  usage: Map<string, { dollars: number[]; kwh: number[] }>;
  /** Energy so far in each reset period, by rate. */
  used: Map<string, number>;
  exportKwh: number;
  days: number;
  /** Import of each 30-minute window inside each demand rate's periods. */
  demand: Map<string, Map<number, number>>;
}

/**
 * A month's bill (issue 14, item 6). Each 5-minute bucket is placed in local time; the segment of
 * its date gives the prices; a period covering its weekday (or PUBLIC_HOLIDAYS on a holiday the
 * plan names) and minute gives the rate, the base rate otherwise; its import is priced across the
 * rate's blocks after what the rate used before in the reset period. Demand charges price the
 * highest 30-minute average import inside the demand periods, per day of the segment; the daily
 * charge applies to each local day; exports earn the feed-in tariff; the discount takes its percent
 * off usage and demand. Lines are rounded to cents; GST is 10 % of the charges (feed-in credits
 * carry none).
 */
export function estimateBill(input: BillInput): RetailBill {
  const { from, to, segments, timezone } = input;
  const start = input.intervals.length ? Math.min(input.intervals[0].ts, from) : from;
  const offsetAt = offsets(timezone, start, to);
  const dayCache = new Map<number, { date: string; holiday: boolean; segment: number }>();
  const dayInfo = (day: number) => {
    let info = dayCache.get(day);
    if (!info) {
      const date = isoOfDay(day);
      const segment = segments.findIndex((s) => s.startDate <= date && (s.endDate === null || date < s.endDate));
      info = { date, holiday: input.isHoliday(date), segment };
      dayCache.set(day, info);
    }
    return info;
  };
  const tallies: SegmentTally[] = segments.map((segment) => ({ segment, usage: new Map(), used: new Map(), exportKwh: 0, days: 0, demand: new Map() }));

  let importKwh = 0;
  let exportKwh = 0;
  let covered = 0;
  for (const iv of input.intervals) {
    if (iv.ts >= to) break;
    const local = iv.ts + offsetAt(iv.ts) * 60;
    const day = Math.floor(local / 86_400);
    const minute = Math.floor((local - day * 86_400) / 60);
    const info = dayInfo(day);
    const counted = iv.ts >= from;
    if (counted) {
      covered++;
      importKwh += iv.importKwh;
      exportKwh += iv.exportKwh;
    }
    if (info.segment < 0) continue;
    const t = tallies[info.segment];
    const p = t.segment.prices;
    const weekday = (day + 4) % 7;
    const rate = periodRate(p.rates, dayCodeOf(weekday, info.holiday, p.rates), minute) ?? p.rates[0];
    const key = `${rate.label}|${resetKey(p.resetPeriod, day, info.date)}`;
    const before = t.used.get(key) ?? 0;
    t.used.set(key, before + iv.importKwh);
    if (!counted) continue;
    let u = t.usage.get(rate.label);
    if (!u) {
      u = { dollars: rate.blocks.map(() => 0), kwh: rate.blocks.map(() => 0) };
      t.usage.set(rate.label, u);
    }
    blockCost(rate.blocks, before, iv.importKwh, u.dollars, u.kwh);
    t.exportKwh += iv.exportKwh;
    if (p.demandRates.length) {
      const d = periodRate(p.demandRates, dayCodeOf(weekday, info.holiday, p.demandRates), minute);
      if (d) {
        let windows = t.demand.get(d.label);
        if (!windows) {
          windows = new Map();
          t.demand.set(d.label, windows);
        }
        const w = Math.floor(iv.ts / DEMAND_WINDOW_S);
        windows.set(w, (windows.get(w) ?? 0) + iv.importKwh);
      }
    }
  }

  // Local days of [from, to), each charged to the segment of its date.
  const firstDay = Math.floor((from + offsetAt(from) * 60) / 86_400);
  const lastDay = Math.floor((to - 1 + offsetAt(to - 1) * 60) / 86_400);
  for (let day = firstDay; day <= lastDay; day++) {
    const info = dayInfo(day);
    if (info.segment >= 0) tallies[info.segment].days++;
  }

  const lines: BillLine[] = [];
  let peakDemandKw: number | null = null;
  const used = tallies.filter((t) => t.days > 0);
  const several = used.length > 1;
  for (const t of used) {
    const p = t.segment.prices;
    const suffix = several ? ` (from ${t.segment.startDate})` : '';
    let discountable = 0;
    for (const rate of p.rates) {
      const u = t.usage.get(rate.label);
      if (!u) continue;
      rate.blocks.forEach((b, j) => {
        if (u.kwh[j] === 0 && j > 0) return;
        const label = rate.blocks.length > 1 ? `${rate.label}, block ${j + 1} (from ${b.onset} kWh)` : rate.label;
        const amountCents = toCents(u.dollars[j]);
        discountable += amountCents;
        lines.push({ kind: 'USAGE', label: `${label}${suffix}`, quantity: round3(u.kwh[j]), unit: 'kWh', rate: b.price, amountCents });
      });
    }
    for (const rate of p.demandRates) {
      const windows = t.demand.get(rate.label);
      const peak = windows ? Math.max(0, ...[...windows.values()].map((kwh) => kwh * (3600 / DEMAND_WINDOW_S))) : 0;
      peakDemandKw = Math.max(peakDemandKw ?? 0, peak);
      const amountCents = toCents(demandCost(rate.blocks, peak, t.days));
      discountable += amountCents;
      lines.push({
        kind: 'DEMAND',
        label: `${rate.label} demand, ${t.days} days${suffix}`,
        quantity: round3(peak),
        unit: 'kW',
        rate: rate.blocks[0].price,
        amountCents,
      });
    }
    if (p.discount > 0 && discountable > 0)
      lines.push({
        kind: 'DISCOUNT',
        label: `Discount${suffix}`,
        quantity: p.discount,
        unit: '%',
        rate: p.discount,
        amountCents: -Math.round((discountable * p.discount) / 100),
      });
    lines.push({
      kind: 'DAILY',
      label: `Daily charge${suffix}`,
      quantity: t.days,
      unit: 'days',
      rate: p.dailyCharge,
      amountCents: toCents(p.dailyCharge * t.days),
    });
    if (t.exportKwh > 0)
      lines.push({
        kind: 'FEED_IN',
        label: `Feed-in credit${suffix}`,
        quantity: round3(t.exportKwh),
        unit: 'kWh',
        rate: p.feedInTariff,
        amountCents: -toCents(t.exportKwh * p.feedInTariff),
      });
  }
  const subtotalCents = lines.reduce((s, l) => s + l.amountCents, 0);
  const chargesCents = lines.filter((l) => l.kind !== 'FEED_IN').reduce((s, l) => s + l.amountCents, 0);
  const gstCents = Math.max(0, Math.round(chargesCents * GST));
  const expected = Math.max(1, Math.round((to - from) / 300));
  return {
    month: input.month,
    from,
    to,
    partial: false,
    timezone,
    coverage: Math.min(1, Math.round((covered / expected) * 1000) / 1000),
    importKwh: round3(importKwh),
    exportKwh: round3(exportKwh),
    peakDemandKw: peakDemandKw === null ? null : round3(peakDemandKw),
    lines,
    subtotalCents,
    gstCents,
    totalCents: subtotalCents + gstCents,
    versions: [...new Set(used.map((t) => t.segment.prices.startDate))],
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
