import {
  administeredPricing,
  canSeeMarketData,
  cptWarmupStart,
  DISPATCH_INTERVAL_S,
  type DispatchPriceQuery,
  type DispatchPriceReply,
  isNemRegion,
  MARKET_FORECAST_S,
  MARKET_MESSAGES,
  MARKET_SERIES_STEP_S,
  type NemRegion,
  type PowerstationPricesReply,
  type SettledPrice,
  startOfPeriod,
} from '@vpp/shared';
import { type Database, nowS } from '../../db/database.ts';
import { bucketTimes } from '../../fleet/series.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { requirePowerstation } from '../vpps/index.ts';
import { type ParsedPriceFile, PriceFileError, parsePriceFileInWorker } from './market.import.ts';
import { INTERVALS_PER_DAY, intervalStarts, marketDayStart, modelPrice } from './market.model.ts';
import * as repo from './market.repo.ts';

const DAY = 86_400;
/** The model's days are written from a year back (settlement reads the past) to the end of its forecast. */
const WRITTEN_BACK_S = 366 * DAY;

/** Days already known to be written, per database: a written day never changes, so it is never asked again. */
const knownDays = new WeakMap<Database, Set<string>>();

/** Market data is shown only to retailers and market traders (spec 3 §1, §6): 403 for the others. */
export function requireMarketAccess(user: AuthUser): void {
  if (!canSeeMarketData(user.row.suborg_type, user.permissions)) throw new ApiError(403, 'market_data_hidden', MARKET_MESSAGES.hidden);
}

/** Whether the caller may see market prices and costs: other areas (predictions, cost) leave them out otherwise. */
export const seesMarketData = (user: AuthUser) => canSeeMarketData(user.row.suborg_type, user.permissions);

/**
 * The 5-minute prices ($/MWh) of a region for the intervals starting in [start, end), in order:
 * stored ones (imported, or the model's written earlier), and the model's for the rest. Days of
 * the model from a year back to 2 days ahead are written on first read, so a price once read
 * never changes; later days are forecast by the model without being written.
 */
export async function regionPrices(ctx: AppContext, region: NemRegion, start: number, end: number, now = nowS()): Promise<{ start: number; rrp: number }[]> {
  const seed = ctx.config.SIM_SEED;
  const starts = intervalStarts(start, end);
  if (!starts.length) return [];
  const today = marketDayStart(now);
  const days = [...new Set(starts.map(marketDayStart))].filter((d) => d >= today - WRITTEN_BACK_S && d <= today + MARKET_FORECAST_S);
  const known = knownDays.get(ctx.db) ?? new Set<string>();
  knownDays.set(ctx.db, known);
  const unknown = days.filter((d) => !known.has(`${region}:${d}`));
  if (unknown.length) {
    const written = await repo.writtenDays(ctx.db, region, unknown);
    for (const day of unknown) {
      if (!written.has(day)) {
        const prices = Array.from({ length: INTERVALS_PER_DAY }, (_, i) => day + i * DISPATCH_INTERVAL_S).map((t) => ({
          intervalStart: t,
          rrp: modelPrice(seed, region, t),
        }));
        await repo.writeModelDay(ctx.db, region, day, prices);
      }
      known.add(`${region}:${day}`);
    }
  }
  const stored = await repo.storedPrices(ctx.db, region, starts[0], starts[starts.length - 1] + DISPATCH_INTERVAL_S);
  return starts.map((t) => ({ start: t, rrp: stored.get(t) ?? modelPrice(seed, region, t) }));
}

/**
 * The 5-minute prices settlement uses for the intervals starting in [start, end): each interval's
 * price, held within the administered price cap in an administered price period (when the prices of
 * the 7 days before passed the financial year's cumulative price threshold: administeredPricing).
 */
export async function settlementPrices(ctx: AppContext, region: NemRegion, start: number, end: number, now = nowS()): Promise<SettledPrice[]> {
  const from = cptWarmupStart(start);
  const series = await regionPrices(ctx, region, from, end, now);
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
  return { regions, region: nem[0].region as NemRegion, multipleRegions: nem.length > 1, reason: null };
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
  return { market: { region: m.region, multipleRegions: m.multipleRegions, step: MARKET_SERIES_STEP_S, rrp }, regions: m.regions, reason: null };
}

/**
 * The cost and sell price of a dispatch at the forecast 5-minute prices of the VPP's region (the
 * definitions are in the shared reply schema): energy per interval realPowerP × 5/60 kWh, valued at
 * price ÷ 1000 $/kWh.
 */
export async function dispatchPrice(ctx: AppContext, user: AuthUser, q: DispatchPriceQuery, now = nowS()): Promise<Omit<DispatchPriceReply, 'status'>> {
  const m = await vppMarket(ctx, user, q.powerstation);
  const none = { dispatchPrice: null, tradingPrice: null, region: m.region, multipleRegions: m.multipleRegions };
  if (!m.region) return { ...none, reason: m.reason };
  const end = q.startTime + q.duration;
  if (end > now + MARKET_FORECAST_S) return { ...none, reason: MARKET_MESSAGES.beyondForecast };
  const prices = await regionPrices(ctx, m.region, q.startTime, end, now);
  const hours = DISPATCH_INTERVAL_S / 3600;
  const cost = prices.reduce((sum, p) => sum + (q.realPowerP * hours * p.rrp) / 1000, 0);
  const average = prices.reduce((sum, p) => sum + p.rrp, 0) / prices.length;
  // + 0: a lockout's -0 is answered as 0.
  return { dispatchPrice: cents(cost) + 0, tradingPrice: cents(average), region: m.region, multipleRegions: m.multipleRegions, reason: null };
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
  return {
    fileName: file.fileName,
    format: file.format,
    regions: [...new Set(file.prices.map((p) => p.region))].sort(),
    prices: file.prices.length,
    written,
    kept: file.prices.length - written,
    from,
    to,
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
