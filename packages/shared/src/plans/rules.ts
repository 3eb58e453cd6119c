import { operationalNetwork, outsideNem } from '../customers/networks.ts';
import { PLAN_DAYS, type PlanType } from './constants.ts';
import { PLAN_MESSAGES as M } from './messages.ts';
import type { PlanFormValues, PlanPrices, PlanRate } from './schemas.ts';

/** Units shown beside prices (spec 3 §5). */
export const RATE_UNIT = '$/kWh';
export const DEMAND_UNIT = 'kW/day';
/** Rates show 4 decimals (spec 3 §5, §9). */
export const RATE_DECIMALS = 4;

export const isTouType = (t: PlanType) => t === 'TOU' || t === 'TOU_BLOCK' || t === 'TOU_DEMAND';
export const isBlockType = (t: PlanType) => t === 'BLOCK' || t === 'TOU_BLOCK';
export const isDemandType = (t: PlanType) => t === 'FLAT_DEMAND' || t === 'TOU_DEMAND';

/** The form's shape of a rate: numbers as typed (text), a period's `rate` the label of its rate. */
export type RateFormValues = PlanFormValues['rates'][number];

const emptyPeriod = (rate: string) => ({
  startTime: '',
  endTime: '',
  applicableDays: [] as PlanFormValues['rates'][number]['periods'][number]['applicableDays'],
  rate,
});
const rate = (label: string, blocks: number, periods: number): RateFormValues => ({
  label,
  isBaseRate: label === M.baseRate,
  blocks: Array.from({ length: blocks }, () => ({ onset: '', price: '' })).map((b, i) => (i === 0 ? { ...b, onset: '0' } : b)),
  periods: Array.from({ length: periods }, () => emptyPeriod(label)),
});

/**
 * The structure a plan type regenerates (spec 3 §4.4): its rates with their blocks and periods, and
 * its demand rates. The first rate is 'Base Rate', flagged isBaseRate; a TOU plan's two periods are
 * one for each rate.
 */
export function planStructure(type: PlanType): { rates: RateFormValues[]; demandRates: RateFormValues[] } {
  const demand = isDemandType(type) ? [rate('Demand', 1, 1)] : [];
  switch (type) {
    case 'FLAT_RATE':
    case 'FLAT_DEMAND':
      return { rates: [rate(M.baseRate, 1, 0)], demandRates: demand };
    case 'BLOCK':
      return { rates: [rate(M.baseRate, 2, 0)], demandRates: [] };
    case 'TOU':
    case 'TOU_DEMAND':
      return { rates: [rate(M.baseRate, 1, 1), rate('Peak', 1, 1)], demandRates: demand };
    case 'TOU_BLOCK':
      return { rates: [rate(M.baseRate, 1, 1), rate('Peak', 2, 1)], demandRates: [] };
  }
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** Minutes after midnight of an HH:MM time (00:00 to 23:59), or null when it is not one. */
export function minutesOf(time: string | null | undefined): number | null {
  const m = TIME.exec(time ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}
/**
 * The minutes a period covers on each of its days, as [start, end) spans: an end of 23:59 reaches
 * midnight, since HH:MM cannot say 24:00 (spec 3 §5 keeps hours to 00-23). An end before the start
 * is an overnight period (22:00 to 07:00): on each of its days it covers 22:00 to midnight and
 * midnight to 07:00, as the two periods a user would otherwise enter. null when a time is not HH:MM
 * or the start equals the end (a period of nothing).
 */
export function periodMinutes(startTime: string, endTime: string): [number, number][] | null {
  const s = minutesOf(startTime);
  const e = minutesOf(endTime);
  if (s === null || e === null || s === e) return null;
  const end = e === 23 * 60 + 59 ? 24 * 60 : e;
  if (s < end) return [[s, end]];
  return end === 0
    ? [[s, 24 * 60]]
    : [
        [s, 24 * 60],
        [0, end],
      ];
}

/**
 * Formats an HH:MM input as the user types (spec 3 §5): keeps digits, puts the colon after the
 * hours, and keeps at most four digits. A colon typed after one hour digit pads it ("9:" → "09:").
 */
export function formatTimeInput(raw: string): string {
  const padded = /^\d:/.test(raw) ? `0${raw}` : raw;
  const digits = padded.replace(/\D/g, '').slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return padded.replace(/\s/g, '').endsWith(':') ? `${digits}:` : digits;
  return `${digits.slice(0, 2)}:${digits.slice(2)}`;
}

const MONEY = /^\d{1,7}(\.\d{1,4})?$/;
/** A dollar amount as typed or sent (at most 4 decimals, not negative), or null when it is not one. */
export function parseDollars(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 && v < 1e7 && MONEY.test(String(v)) ? v : null;
  if (typeof v !== 'string' || !MONEY.test(v.trim())) return null;
  return Number(v.trim());
}
const NUMBER = /^\d{1,7}(\.\d{1,3})?$/;
/** A non-negative number (an onset: kWh or kW, at most 3 decimals), or null. */
export function parseNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 && v < 1e7 && NUMBER.test(String(v)) ? v : null;
  if (typeof v !== 'string' || !NUMBER.test(v.trim())) return null;
  return Number(v.trim());
}
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** Whether a text is a real calendar date as YYYY-MM-DD. */
export function isIsoDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** What the plan form or the server refuses: messages by field path (`rates.0.blocks.1.price`), and those of no one field. */
export interface PlanErrors {
  errors: Record<string, string>;
  non_field_errors: string[];
}

/** Whether two periods share a day and some minute (spec 3 §5: PUBLIC_HOLIDAYS is a day like the others). */
export function periodsOverlap(
  a: { startTime: string; endTime: string; applicableDays: readonly string[] },
  b: { startTime: string; endTime: string; applicableDays: readonly string[] },
): boolean {
  if (!a.applicableDays.some((d) => b.applicableDays.includes(d))) return false;
  const x = periodMinutes(a.startTime, a.endTime) ?? [];
  const y = periodMinutes(b.startTime, b.endTime) ?? [];
  return x.some(([s1, e1]) => y.some(([s2, e2]) => s1 < e2 && s2 < e1));
}

/**
 * Every rule of the plan form (spec 3 §5), for the browser before it sends and the server before it
 * saves: required fields, dollar values, reset period for block plans, rates with labels, blocks
 * with onsets and prices, periods with HH:MM times, start before end, a day and a rate, and no two
 * periods overlapping on a shared day. Answers the errors and, when there are none, the plan's
 * prices normalised (numbers; each period under the rate it names; the first rate the base rate).
 * Unique name and code need the organisation's plans: the server adds those.
 */
export function validatePlan(v: PlanFormValues): PlanErrors & { prices: PlanPrices | null } {
  const errors: Record<string, string> = {};
  const non_field_errors: string[] = [];
  const add = (path: string, message: string) => {
    if (!(path in errors)) errors[path] = message;
  };
  const nonField = (message: string) => {
    if (!non_field_errors.includes(message)) non_field_errors.push(message);
  };

  if (blank(v.name)) add('name', M.nameRequired);
  if (blank(v.planCode)) add('planCode', M.planCodeRequired);
  else if (/^(new|\.+)$/i.test(String(v.planCode).trim())) add('planCode', M.planCodeReserved);
  if (!v.tariffType) add('tariffType', M.typeRequired);
  if (blank(v.operationalNetworkUid)) add('operationalNetworkUid', M.networkRequired);
  else {
    const network = operationalNetwork(String(v.operationalNetworkUid));
    if (!network) add('operationalNetworkUid', M.unknownNetwork);
    // Issue 33 item 8: retail plans are the NEM's; WA's and NT's homes are not offered them.
    else if (outsideNem(network)) add('operationalNetworkUid', outsideNem(network) as string);
  }
  if (blank(v.startDate)) add('startDate', M.startDateRequired);
  else if (!isIsoDate(String(v.startDate))) add('startDate', M.dateFormat);
  const dailyCharge = parseDollars(v.dailyCharge);
  if (blank(v.dailyCharge)) add('dailyCharge', M.dailyChargeRequired);
  else if (dailyCharge === null) add('dailyCharge', M.dollarValue);
  const feedInTariff = parseDollars(v.feedInTariff);
  if (blank(v.feedInTariff)) add('feedInTariff', M.feedInRequired);
  else if (feedInTariff === null) add('feedInTariff', M.dollarValue);
  const discount = blank(v.discount) ? 0 : parseNumber(v.discount);
  if (discount === null || discount > 100) add('discount', M.discountRange);
  const type = v.tariffType ?? null;
  if (type && isBlockType(type) && !v.resetPeriod) add('resetPeriod', M.resetPeriodRequired);

  const checkRates = (list: RateFormValues[], key: 'rates' | 'demandRates', opts: { periods: boolean; periodRequired: boolean; multiBlock: boolean }) => {
    const labels = list.map((r) => (r.label ?? '').trim());
    list.forEach((r, i) => {
      const at = `${key}.${i}`;
      const label = labels[i];
      if (!label) add(`${at}.label`, M.labelRequired);
      else if (labels.indexOf(label) !== i) add(`${at}.label`, M.duplicateLabel);
      if (!r.blocks.length) add(`${at}.blocks`, M.blockMissing);
      else if (r.blocks.length > 1 && !opts.multiBlock) add(`${at}.blocks`, M.blocksNotForType);
      let previous = -1;
      r.blocks.forEach((b, j) => {
        const onset = parseNumber(b.onset);
        if (blank(b.onset)) add(`${at}.blocks.${j}.onset`, M.onsetRequired);
        else if (onset === null) add(`${at}.blocks.${j}.onset`, M.number);
        else if (j === 0 && onset !== 0) add(`${at}.blocks.${j}.onset`, M.firstOnsetZero);
        else if (j > 0 && previous >= 0 && onset <= previous) add(`${at}.blocks.${j}.onset`, M.onsetsIncrease);
        if (onset !== null) previous = onset;
        if (blank(b.price)) add(`${at}.blocks.${j}.price`, M.priceRequired);
        else if (parseDollars(b.price) === null) add(`${at}.blocks.${j}.price`, M.dollarValue);
      });
      if (r.periods.length && !opts.periods) add(`${at}.periods`, M.periodsNotForType);
      if (!r.periods.length && opts.periodRequired && !(key === 'rates' && i === 0)) add(`${at}.periods`, M.periodMissing);
      r.periods.forEach((p, j) => {
        const pat = `${at}.periods.${j}`;
        const s = minutesOf(p.startTime);
        const e = minutesOf(p.endTime);
        if (blank(p.startTime)) add(`${pat}.startTime`, M.startTimeRequired);
        else if (s === null) add(`${pat}.startTime`, M.timeFormat);
        if (blank(p.endTime)) add(`${pat}.endTime`, M.endTimeRequired);
        else if (e === null) add(`${pat}.endTime`, M.timeFormat);
        // An end before the start runs overnight (see periodMinutes); only a period of nothing is refused.
        if (s !== null && e !== null && s === e) add(`${pat}.endTime`, M.startBeforeEnd);
        if (!p.applicableDays.length) add(`${pat}.applicableDays`, M.dayRequired);
        if (blank(p.rate)) add(`${pat}.rate`, M.rateRequired);
        else if (!labels.includes(String(p.rate).trim())) add(`${pat}.rate`, M.unknownRate);
      });
    });
    // Overlaps among the list's periods, whichever rates they belong to.
    const all = list.flatMap((r) => r.periods).filter((p) => periodMinutes(p.startTime ?? '', p.endTime ?? '') && p.applicableDays.length);
    for (let a = 0; a < all.length; a++)
      for (let b = a + 1; b < all.length; b++)
        if (
          periodsOverlap(
            all[a] as { startTime: string; endTime: string; applicableDays: string[] },
            all[b] as { startTime: string; endTime: string; applicableDays: string[] },
          )
        )
          nonField(M.overlapping);
  };

  if (type) {
    if (!v.rates.length) nonField(M.rateMissing);
    checkRates(v.rates, 'rates', { periods: isTouType(type), periodRequired: isTouType(type), multiBlock: isBlockType(type) });
    if (isDemandType(type) && !v.demandRates.length) nonField(M.demandRateMissing);
    if (!isDemandType(type) && v.demandRates.length) nonField(M.demandNotForType);
    else checkRates(v.demandRates, 'demandRates', { periods: true, periodRequired: true, multiBlock: true });
  }

  if (Object.keys(errors).length || non_field_errors.length || !type) return { errors, non_field_errors, prices: null };
  const normalise = (list: RateFormValues[], base: boolean): PlanRate[] => {
    const periods = list.flatMap((r) => r.periods);
    return list.map((r, i) => {
      const label = (r.label ?? '').trim();
      return {
        label,
        isBaseRate: base && i === 0,
        blocks: r.blocks.map((b) => ({ onset: parseNumber(b.onset) as number, price: parseDollars(b.price) as number })),
        periods: periods
          .filter((p) => String(p.rate).trim() === label)
          .map((p) => ({
            startTime: String(p.startTime),
            endTime: String(p.endTime),
            applicableDays: PLAN_DAYS.filter((d) => p.applicableDays.includes(d)),
            rate: label,
          })),
      };
    });
  };
  return {
    errors,
    non_field_errors,
    prices: {
      startDate: String(v.startDate),
      tariffType: type,
      resetPeriod: v.resetPeriod ?? null,
      rates: normalise(v.rates, true),
      demandRates: normalise(v.demandRates, false),
      dailyCharge: dailyCharge as number,
      feedInTariff: feedInTariff as number,
      discount: discount as number,
    },
  };
}
