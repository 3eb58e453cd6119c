import { DISPATCH_INTERVAL_S, MARKET_TIME_OFFSET_S } from './rules.ts';

// The NEM's market price settings by financial year (1 July to 30 June, market time UTC+10): the
// market price cap (MPC), the market floor price, the cumulative price threshold (CPT) and the
// administered price cap (APC). The MPC and CPT are indexed to CPI each year and published by the
// AEMC in its "Schedule of reliability settings" (NER clauses 3.9.4 and 3.14.1); the APC and the
// floor are set by rule (NER 3.14.1(c), 3.9.6). Sources, per year:
//   - FY 2019-20 to 2024-25: the AEMC's published schedules of reliability settings for each year
//     (MPC 14,700 / 15,000 / 15,100 / 15,500 / 16,600 / 17,500 $/MWh).
//   - FY 2025-26 onward: the AEMC's final rule ERC0353 "Amendment of the market price cap,
//     cumulative price threshold and administered price cap" (7 December 2023): MPC in 2022 dollars
//     18,600 (2025-26), 20,700 (2026-27), 22,800 (2027-28) $/MWh; CPT 7.5, 8 and 8.5 hours at the MPC
//     (×12 dispatch intervals an hour); APC 600 $/MWh. Indexed by the AEMC's schedule for 2025-26
//     (CPI 554.7 / 509.2): MPC 20,300 $/MWh, CPT 1,823,600 $/MWh.
//   - FY 2026-27: the same rule's second step indexed as NER 3.9.4 does it (2022-dollar value × sum of
//     the four 2025 CPI quarters ÷ 509.2, to the nearest $100). The AEMC's published schedule for
//     2026-27 could not be consulted when this table was written: replace the two figures with it.
// Before five-minute settlement (1 October 2021) the CPT was a sum over 336 half-hours; the figures
// here are all on the five-minute basis (a sum over 2016 dispatch intervals), so older CPTs are ×6
// (2019-20's 221,100 and 2020-21's 224,600 half-hourly CPTs were not confirmed against the schedules).
// The APC was 300 $/MWh until the AEMC's expedited rule raised it to 600 $/MWh (ERC0347, from
// 1 December 2022); the 2022-23 year is given the higher one from that day.

/** One financial year's market price settings, $/MWh (the CPT a sum of 5-minute prices). */
export interface MarketSettings {
  /** '2025-26': from 1 July 2025 00:00 to 1 July 2026 00:00, market time. */
  financialYear: string;
  marketPriceCap: number;
  marketPriceFloor: number;
  cumulativePriceThreshold: number;
  administeredPriceCap: number;
  /** Where the figures come from (shown with them). */
  source: string;
}

/** The administered price cap before the AEMC's expedited rule ERC0347 raised it, and the day it did (epoch seconds, 00:00 market time). */
const APC_RAISED_AT = Date.UTC(2022, 11, 1) / 1000 - MARKET_TIME_OFFSET_S;
const APC_BEFORE_RAISE = 300;

const SCHEDULE = 'AEMC, Schedule of reliability settings';
const ERC0353 = 'AEMC final rule ERC0353 (7 December 2023), indexed to CPI as NER 3.9.4 requires';

/** The settings of each financial year this console knows, oldest first. */
export const MARKET_SETTINGS: readonly MarketSettings[] = [
  {
    financialYear: '2019-20',
    marketPriceCap: 14_700,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_326_600,
    administeredPriceCap: 300,
    source: `${SCHEDULE} 2019-20`,
  },
  {
    financialYear: '2020-21',
    marketPriceCap: 15_000,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_347_600,
    administeredPriceCap: 300,
    source: `${SCHEDULE} 2020-21`,
  },
  {
    financialYear: '2021-22',
    marketPriceCap: 15_100,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_359_100,
    administeredPriceCap: 300,
    source: `${SCHEDULE} 2021-22`,
  },
  {
    financialYear: '2022-23',
    marketPriceCap: 15_500,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_398_100,
    administeredPriceCap: 600,
    source: `${SCHEDULE} 2022-23`,
  },
  {
    financialYear: '2023-24',
    marketPriceCap: 16_600,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_490_200,
    administeredPriceCap: 600,
    source: `${SCHEDULE} 2023-24`,
  },
  {
    financialYear: '2024-25',
    marketPriceCap: 17_500,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_573_700,
    administeredPriceCap: 600,
    source: `${SCHEDULE} 2024-25`,
  },
  {
    financialYear: '2025-26',
    marketPriceCap: 20_300,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 1_823_600,
    administeredPriceCap: 600,
    source: `${SCHEDULE} 2025-26; ${ERC0353}`,
  },
  {
    financialYear: '2026-27',
    marketPriceCap: 23_200,
    marketPriceFloor: -1000,
    cumulativePriceThreshold: 2_225_700,
    administeredPriceCap: 600,
    source: ERC0353,
  },
];

/** The financial year ('2025-26') of an interval starting at `t` (epoch seconds), in market time. */
export function financialYearOf(t: number): string {
  const d = new Date((t + MARKET_TIME_OFFSET_S) * 1000);
  const first = d.getUTCMonth() >= 6 ? d.getUTCFullYear() : d.getUTCFullYear() - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

/** The settings in force for the interval starting at `t`, or null for a year this console has none for. */
export function marketSettingsAt(t: number): MarketSettings | null {
  const fy = financialYearOf(t);
  const s = MARKET_SETTINGS.find((m) => m.financialYear === fy);
  if (!s) return null;
  return t < APC_RAISED_AT ? { ...s, administeredPriceCap: APC_BEFORE_RAISE } : s;
}

/** The settings of the latest year known: what the price model uses past the table (it forecasts at most 2 days ahead). */
export const LATEST_MARKET_SETTINGS = MARKET_SETTINGS[MARKET_SETTINGS.length - 1];

/** The dispatch intervals whose prices the CPT sums: 7 days (NER 3.14.1, since five-minute settlement). */
export const CPT_INTERVALS = 2016;
/** A trading day begins at 04:00 market time; an administered price period lasts to the end of one. */
const TRADING_DAY_OFFSET_S = 4 * 3600;
const tradingDayOf = (t: number) => Math.floor((t + MARKET_TIME_OFFSET_S - TRADING_DAY_OFFSET_S) / 86_400);

/** A 5-minute price as settlement takes it: the market's, or the administered one. */
export interface SettledPrice {
  start: number;
  /** The regional reference price, $/MWh. */
  rrp: number;
  /** The price settled: rrp, or within ±APC in an administered price period. */
  price: number;
  administered: boolean;
}

/**
 * Applies administered pricing (NER 3.14.2) to consecutive 5-minute prices of one region, oldest
 * first: an administered price period begins at an interval when the sum of the spot prices of the
 * previous 2016 intervals exceeds the year's CPT, and lasts to the end of that trading day (04:00
 * market time), again for every later interval whose previous 2016 still exceed it. In it the price
 * is held within the administered price cap and its negative (the administered floor). The sums
 * count the prices as settled. The first `warmup` prices only feed the sums (the 7 days before the
 * range asked for); the answer leaves them out.
 */
export function administeredPricing(prices: readonly { start: number; rrp: number }[], warmup: number): SettledPrice[] {
  const out: SettledPrice[] = [];
  const window: number[] = [];
  let sum = 0;
  let periodDay: number | null = null;
  for (const p of prices) {
    const s = marketSettingsAt(p.start) ?? LATEST_MARKET_SETTINGS;
    const day = tradingDayOf(p.start);
    if (periodDay !== null && periodDay !== day) periodDay = null;
    if (sum > s.cumulativePriceThreshold) periodDay = day;
    const administered = periodDay !== null;
    const apc = s.administeredPriceCap;
    const price = administered ? Math.min(apc, Math.max(-apc, p.rrp)) : p.rrp;
    out.push({ start: p.start, rrp: p.rrp, price, administered });
    window.push(price);
    sum += price;
    if (window.length > CPT_INTERVALS) sum -= window.shift() as number;
  }
  return out.slice(warmup);
}

/** The 5-minute interval starts of the 7 days before `start`: where a settlement's price sums begin. */
export const cptWarmupStart = (start: number) => start - CPT_INTERVALS * DISPATCH_INTERVAL_S;
