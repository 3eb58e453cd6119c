import {
  canSeeMarketData,
  DISPATCH_INTERVAL_S,
  isNemRegion,
  MARKET_FORECAST_S,
  MARKET_MESSAGES,
  MARKET_SERIES_STEP_S,
  type NemRegion,
} from '@vpp/shared/market/rules';
import type { DispatchPriceQuery, DispatchPriceReply, PowerstationPricesReply } from '@vpp/shared/market/schemas';
import { administeredPricing, cptWarmupStart, type SettledPrice } from '@vpp/shared/market/settings';
import { startOfPeriod } from '@vpp/shared/time';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { bucketTimes } from '../../telemetry/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
import { type ParsedPriceFile, PriceFileError, parsePriceFileInWorker } from './market.import.ts';
import { intervalStarts, MODEL_RUN_S, modelForecast, modelPrice } from './market.model.ts';
import * as repo from './market.repo.ts';

const DAY = 86_400;
/** The model's actual prices are written from a year back (settlement reads the past); older ones are computed, not written. */
const WRITTEN_BACK_S = 366 * DAY;
/** An imported forecast run older than this at the time asked gives way to the model's newer run. */
export const FORECAST_STALE_S = 3600;

/** Market data is shown only to retailers and market traders (spec 3 §1, §6): 403 for the others. */
export function requireMarketAccess(user: AuthUser): void {
  if (!canSeeMarketData(user.row.suborg_type, user.permissions)) throw new ApiError(403, 'market_data_hidden', MARKET_MESSAGES.hidden);
}

/** Whether the caller may see market prices and costs: other areas (predictions, cost) leave them out otherwise. */
export const seesMarketData = (user: AuthUser) => canSeeMarketData(user.row.suborg_type, user.permissions);

/**
 * The actual 5-minute prices ($/MWh) of a region for the intervals starting in [start, end) that
 * have ended by `now`, in order: imported ones, or the model's (`modelPrice`), written when first
 * read so that a price once read never changes. An interval that has not ended has no actual price
 * and is left out: settlement waits for it.
 */
export async function actualPrices(
  ctx: Pick<AppContext, 'db' | 'config'>,
  region: NemRegion,
  start: number,
  end: number,
  now = nowS(),
): Promise<{ start: number; rrp: number }[]> {
  const seed = ctx.config.SIM_SEED;
  // Ended: the interval's start is at least 5 minutes before now.
  const starts = intervalStarts(start, Math.min(end, now - DISPATCH_INTERVAL_S + 1));
  if (!starts.length) return [];
  const rangeEnd = starts[starts.length - 1] + DISPATCH_INTERVAL_S;
  let stored = await repo.storedPrices(ctx.db, region, starts[0], rangeEnd);
  const missing = starts.filter((t) => !stored.has(t) && t >= now - WRITTEN_BACK_S);
  if (missing.length) {
    await repo.writeModelPrices(
      ctx.db,
      region,
      missing.map((t) => ({ intervalStart: t, rrp: modelPrice(seed, region, t) })),
    );
    stored = await repo.storedPrices(ctx.db, region, starts[0], rangeEnd);
  }
  return starts.map((t) => ({ start: t, rrp: stored.get(t) ?? modelPrice(seed, region, t) }));
}

/** A forecast price of one 5-minute interval, with the run it comes from. */
export interface ForecastPrice {
  /** The interval's start. */
  start: number;
  rrp: number;
  /** When the run was issued, and the horizon (the interval's start less that, seconds, ≥ 0). */
  issuedAt: number;
  horizon: number;
  source: 'P5MIN' | 'PREDISPATCH' | 'MODEL';
}

/**
 * The latest forecast of a region's 5-minute prices for the intervals starting in [start, end), as
 * known at `asOf`: for each interval, the newest run issued at or before both `asOf` and the
 * interval's start (a run issued after an interval began does not forecast it). An imported AEMO run
 * (P5MIN, or PREDISPATCH's 30-minute period holding the interval; P5MIN first on a tie) is used
 * when one was issued within FORECAST_STALE_S of that time; otherwise the model stands in with its
 * run of that time (`modelForecast`, a run every 5 minutes). Never an actual price: the optimiser and
 * the quotes read this, settlement reads `actualPrices`.
 */
export async function latestForecast(
  ctx: Pick<AppContext, 'db' | 'config'>,
  region: NemRegion,
  start: number,
  end: number,
  asOf: number,
): Promise<ForecastPrice[]> {
  const starts = intervalStarts(start, end);
  if (!starts.length) return [];
  const first = starts[0];
  const last = starts[starts.length - 1] + DISPATCH_INTERVAL_S;
  const rows = await repo.storedForecasts(ctx.db, region, first, last, Math.min(asOf, first) - FORECAST_STALE_S, asOf);
  // The imported runs of each interval.
  const byInterval = new Map<number, repo.StoredForecast[]>();
  for (const f of rows)
    for (let t = Math.max(f.intervalStart, first); t < Math.min(f.intervalEnd, last); t += DISPATCH_INTERVAL_S) {
      const list = byInterval.get(t);
      if (list) list.push(f);
      else byInterval.set(t, [f]);
    }
  const seed = ctx.config.SIM_SEED;
  return starts.map((t) => {
    const at = Math.min(asOf, t);
    let best: repo.StoredForecast | undefined;
    for (const f of byInterval.get(t) ?? []) {
      if (f.issuedAt > at || f.issuedAt < at - FORECAST_STALE_S) continue;
      if (!best || f.issuedAt > best.issuedAt || (f.issuedAt === best.issuedAt && f.source === 'P5MIN')) best = f;
    }
    if (best) return { start: t, rrp: best.rrp, issuedAt: best.issuedAt, horizon: t - best.issuedAt, source: best.source };
    const issuedAt = Math.floor(at / MODEL_RUN_S) * MODEL_RUN_S;
    return { start: t, rrp: modelForecast(seed, region, t, issuedAt), issuedAt, horizon: t - issuedAt, source: 'MODEL' as const };
  });
}

/**
 * The 5-minute prices ($/MWh) of a region for the intervals starting in [start, end), in order, as
 * the console draws them at `now`: the actual price of each interval that has ended
 * (`actualPrices`), the latest forecast of the others (`latestForecast`).
 */
export async function regionPrices(ctx: AppContext, region: NemRegion, start: number, end: number, now = nowS()): Promise<{ start: number; rrp: number }[]> {
  const actual = await actualPrices(ctx, region, start, end, now);
  const from = actual.length ? actual[actual.length - 1].start + DISPATCH_INTERVAL_S : start;
  const forecast = await latestForecast(ctx, region, from, end, now);
  return [...actual, ...forecast.map((f) => ({ start: f.start, rrp: f.rrp }))];
}

/**
 * The 5-minute prices settlement uses for the intervals starting in [start, end): each interval's
 * actual price (`actualPrices`: only intervals ended by `now`, a forecast never), held within the administered price cap in an administered price period (when the prices of
 * the 7 days before passed the financial year's cumulative price threshold: administeredPricing).
 */
export async function settlementPrices(ctx: AppContext, region: NemRegion, start: number, end: number, now = nowS()): Promise<SettledPrice[]> {
  const from = cptWarmupStart(start);
  const series = await actualPrices(ctx, region, from, end, now);
  const first = series.findIndex((p) => p.start >= start);
  return first < 0 ? [] : administeredPricing(series, first);
}

interface VppMarket {
  regions: { region: string; nodes: number }[];
  region: NemRegion | null;
  multipleRegions: boolean;
  reason: string | null;
}

/**
 * The market of a VPP: its nodes by region, and the NEM region whose prices it trades at (the one
 * holding most of its nodes), or why it has none. 403 before 404: a caller who may not see market
 * data learns nothing about the VPP.
 */
/** The NEM region a VPP trades at (the one holding most of its nodes); null when none of its nodes is in the NEM. */
export async function vppRegion(ctx: AppContext, ps: Parameters<typeof repo.memberRegions>[1]): Promise<NemRegion | null> {
  const nem = (await repo.memberRegions(ctx.db, ps)).filter((r) => isNemRegion(r.region));
  return nem.length ? (nem[0].region as NemRegion) : null;
}

async function vppMarket(ctx: AppContext, user: AuthUser, id: number): Promise<VppMarket> {
  requireMarketAccess(user);
  const ps = await requirePowerstation(ctx, user, id);
  const regions = await repo.memberRegions(ctx.db, ps);
  const nem = regions.filter((r) => isNemRegion(r.region));
  if (!nem.length) return { regions, region: null, multipleRegions: false, reason: regions.length ? MARKET_MESSAGES.outsideNem : MARKET_MESSAGES.noNodes };
  // Homes in WA or NT beside the NEM's: said, as they are not priced (issue 33 item 8).
  const outside = regions.filter((r) => !isNemRegion(r.region)).reduce((a, r) => a + r.nodes, 0);
  return { regions, region: nem[0].region as NemRegion, multipleRegions: nem.length > 1, reason: outside ? MARKET_MESSAGES.partlyOutsideNem(outside) : null };
}

const cents = (v: number) => Math.round(v * 100) / 100;

/** A VPP's price series: the average of the six 5-minute prices of each 30-minute bucket beginning in the range. */
export async function powerstationPrices(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  q: { start?: number; end?: number },
): Promise<Omit<PowerstationPricesReply, 'status'>> {
  const m = await vppMarket(ctx, user, id);
  if (!m.region) return { market: null, regions: m.regions, reason: m.reason };
  const start = q.start ?? (q.end !== undefined ? q.end - DAY : startOfPeriod(nowS(), 'day', user.row.timezone ?? 'Australia/Sydney'));
  const end = q.end ?? start + DAY;
  const buckets = bucketTimes(start, end, MARKET_SERIES_STEP_S, 'UTC', { localHours: false });
  const prices = buckets.length ? await regionPrices(ctx, m.region, buckets[0], buckets[buckets.length - 1] + MARKET_SERIES_STEP_S) : [];
  const sums = new Map<number, { sum: number; n: number }>();
  for (const p of prices) {
    const b = p.start - (p.start % MARKET_SERIES_STEP_S);
    const s = sums.get(b) ?? { sum: 0, n: 0 };
    s.sum += p.rrp;
    s.n++;
    sums.set(b, s);
  }
  const rrp: Record<string, number | null> = {};
  for (const b of buckets) {
    const s = sums.get(b);
    rrp[b] = s ? cents(s.sum / s.n) : null;
  }
  return { market: { region: m.region, multipleRegions: m.multipleRegions, step: MARKET_SERIES_STEP_S, rrp }, regions: m.regions, reason: m.reason };
}

/** A dispatch's cost at the forecast prices of its region as known at a time, and the newest run it read. */
export interface ForecastQuote {
  region: NemRegion;
  /** AUD, 2 decimals: charging at a positive price costs (positive), discharging earns (negative). */
  cost: number;
  /** The average forecast price of its intervals, $/MWh, 2 decimals. */
  tradingPrice: number;
  /** The issue time and source of the newest forecast run it read; ACTUAL (and the time asked) when every interval had ended. */
  issuedAt: number;
  source: ForecastPrice['source'] | 'ACTUAL';
}

/**
 * The cost and sell price of a request at the prices of the region known at `asOf` (the actual price
 * of each interval that had ended, the latest forecast of the others; the
 * definitions are in the shared reply schema of GET /dispatch/price): energy per interval
 * realPowerP × 5/60 kWh, valued at price ÷ 1000 $/kWh.
 */
export async function forecastQuote(
  ctx: Pick<AppContext, 'db' | 'config'>,
  region: NemRegion,
  q: { startTime: number; duration: number; realPowerP: number },
  asOf: number,
): Promise<ForecastQuote> {
  const end = q.startTime + q.duration;
  // Intervals that had ended by then are priced at their actual price, the others at the latest forecast.
  const actual = await actualPrices(ctx, region, q.startTime, end, asOf);
  const from = actual.length ? actual[actual.length - 1].start + DISPATCH_INTERVAL_S : q.startTime;
  const forecast = await latestForecast(ctx, region, from, end, asOf);
  const prices = [...actual, ...forecast];
  const hours = DISPATCH_INTERVAL_S / 3600;
  const cost = prices.reduce((sum, p) => sum + (q.realPowerP * hours * p.rrp) / 1000, 0);
  const average = prices.reduce((sum, p) => sum + p.rrp, 0) / prices.length;
  const newest = forecast.reduce<ForecastPrice | null>((a, b) => (!a || b.issuedAt > a.issuedAt ? b : a), null);
  // + 0: a lockout's -0 is answered as 0.
  return {
    region,
    cost: cents(cost) + 0,
    tradingPrice: cents(average),
    issuedAt: newest?.issuedAt ?? asOf,
    source: newest?.source ?? 'ACTUAL',
  };
}

/**
 * The quote a new dispatch of a VPP keeps (whoever creates it: the quote is the dispatch's, shown
 * only to those who see market data): its forecast cost at its creation, or null when the VPP has no
 * NEM region or the dispatch ends beyond the forecast.
 */
export async function quoteForDispatch(
  ctx: Pick<AppContext, 'db' | 'config'>,
  ps: PowerstationRow,
  q: { startTime: number; duration: number; realPowerP: number },
  now: number,
): Promise<ForecastQuote | null> {
  const nem = (await repo.memberRegions(ctx.db, ps)).filter((r) => isNemRegion(r.region));
  if (!nem.length || q.startTime + q.duration > now + MARKET_FORECAST_S) return null;
  return forecastQuote(ctx, nem[0].region as NemRegion, q, now);
}

/** Stores a dispatch's quote, in the transaction that creates it. */
export const storeDispatchQuote = (db: Database, eventId: number, quote: ForecastQuote, quotedAt: number) =>
  repo.storeQuote(db, {
    eventId,
    quotedAt,
    region: quote.region,
    cost: quote.cost,
    tradingPrice: quote.tradingPrice,
    forecastIssuedAt: quote.issuedAt,
    forecastSource: quote.source,
  });

/** A dispatch's stored quote, or undefined. */
export const dispatchQuote = (db: Database, eventId: number) => repo.findQuote(db, eventId);

/**
 * The cost and sell price of a dispatch at the forecast 5-minute prices of the VPP's region
 * (`forecastQuote` as of now).
 */
export async function dispatchPrice(ctx: AppContext, user: AuthUser, q: DispatchPriceQuery, now = nowS()): Promise<Omit<DispatchPriceReply, 'status'>> {
  const m = await vppMarket(ctx, user, q.powerstation);
  const none = { dispatchPrice: null, tradingPrice: null, region: m.region, multipleRegions: m.multipleRegions };
  if (!m.region) return { ...none, reason: m.reason };
  const end = q.startTime + q.duration;
  if (end > now + MARKET_FORECAST_S) return { ...none, reason: MARKET_MESSAGES.beyondForecast };
  const quote = await forecastQuote(ctx, m.region, q, now);
  return { dispatchPrice: quote.cost, tradingPrice: quote.tradingPrice, region: m.region, multipleRegions: m.multipleRegions, reason: m.reason };
}

/** The result of one import, as the API and the command line report it. */
export interface ImportSummary {
  fileName: string;
  format: ParsedPriceFile['format'];
  regions: NemRegion[];
  prices: number;
  written: number;
  kept: number;
  from: number;
  to: number;
  forecast: boolean;
}

/** Stores a parsed price file (its prices replace the model's for their intervals) and records who imported it. */
export async function importPrices(ctx: Pick<AppContext, 'db'>, file: ParsedPriceFile, by: AuthUser | null): Promise<ImportSummary> {
  const written = await repo.storeImport(ctx.db, file, by ? { userId: by.id, organisationId: by.organisationId } : null);
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const p of file.prices) {
    from = Math.min(from, p.intervalStart);
    to = Math.max(to, p.intervalStart + DISPATCH_INTERVAL_S);
  }
  for (const f of file.forecasts) {
    from = Math.min(from, f.intervalStart);
    to = Math.max(to, f.intervalEnd);
  }
  const count = file.prices.length + file.forecasts.length;
  return {
    fileName: file.fileName,
    format: file.format,
    regions: [...new Set([...file.prices, ...file.forecasts].map((p) => p.region))].sort(),
    prices: count,
    written,
    kept: count - written,
    from,
    to,
    forecast: file.forecasts.length > 0,
  };
}

/** An administrator's upload: read whole (400 naming the line when malformed, nothing written), then stored. */
export async function importPriceFile(ctx: AppContext, user: AuthUser, fileName: string, bytes: Uint8Array): Promise<ImportSummary> {
  // Every organisation settles on these prices: one organisation's administrator must not move another's.
  if (user.row.organisation_name !== ctx.config.marketImportOrganisation)
    throw new ApiError(403, 'price_import_operator_only', MARKET_MESSAGES.importOperatorOnly);
  let parsed: ParsedPriceFile;
  try {
    parsed = await parsePriceFileInWorker(fileName, bytes);
  } catch (err) {
    if (err instanceof PriceFileError) throw badRequest(err.message, 'price_file_malformed');
    throw err;
  }
  return importPrices(ctx, parsed, user);
}
