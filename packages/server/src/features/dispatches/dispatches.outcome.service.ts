import type { DispatchMeasurement } from '@vpp/shared/dispatches/schemas';
import { isNemRegion, type NemRegion } from '@vpp/shared/market/rules';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { nodeFacts } from '../events/index.ts';
import { dispatchPrice, dispatchQuote, requireMarketAccess, seesMarketData, settlementPrices } from '../market/index.ts';
import { STEP_S } from './dispatches.engine.ts';
import { medianOf } from './dispatches.measurement.service.ts';
import * as repo from './dispatches.repo.ts';
import { measuredResponse } from './dispatches.response.service.ts';
import { requireDispatch } from './dispatches.service.ts';
import { findSettlement } from './dispatches.settlement.service.ts';

// A dispatch's outcome: its measured response priced per interval, and its cost (spec 3 §3.3).

/**
 * Each measured interval's settled prices (by NEM region of the accepting nodes) and the value of the
 * energy its measured nodes delivered (Σ kWh × the node's region's price ÷ 1000, AUD), as settlement
 * prices it; empty when not `priced` (a RERT dispatch, a caller without market data).
 */
async function intervalMoney(ctx: AppContext, m: Awaited<ReturnType<typeof measuredResponse>>['measurement'], priced: boolean, now: number) {
  const none = m.intervals.map(() => ({ prices: {} as Record<string, number>, valueAud: null as number | null }));
  if (!priced || !m.intervals.length) return none;
  const accepted = m.nodes.filter((x) => x.answer === 'ACCEPTED');
  const regionOf = new Map(
    [
      ...(await nodeFacts(
        ctx.db,
        accepted.map((x) => x.nodeId),
      )),
    ].map(([id, f]) => [id, f.region]),
  );
  const priceAt = new Map<string, Map<number, number>>();
  for (const region of new Set(regionOf.values())) {
    if (!isNemRegion(region)) continue;
    const series = await settlementPrices(ctx, region, m.start, m.end, now);
    priceAt.set(region, new Map(series.map((p) => [p.start, p.price])));
  }
  return m.intervals.map((iv, k) => {
    const prices: Record<string, number> = {};
    for (const [region, at] of priceAt) {
      const p = at.get(iv.ts);
      if (p !== undefined) prices[region] = p;
    }
    let value = 0;
    let valued = false;
    for (const x of accepted) {
      const price = prices[regionOf.get(x.nodeId) ?? ''];
      const kw = x.measured[k] - x.baseline.kw[k];
      if (price === undefined || Number.isNaN(kw)) continue;
      value += (((kw * iv.seconds) / 3600) * price) / 1000;
      valued = true;
    }
    return { prices, valueAud: valued ? Math.round(value * 10_000) / 10_000 : null };
  });
}

/** The measured response of a dispatch, per 5 minutes and in total (its intervals priced as of `now`: those that have ended). */
export async function dispatchResponse(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT, now = nowS()) {
  const d = await requireDispatch(ctx, user, id, type);
  const r = await measuredResponse(ctx, d);
  const m = r.measurement;
  const kwh = (f: (iv: (typeof m.intervals)[number]) => number) => round3(m.intervals.reduce((a, iv) => a + (f(iv) * iv.seconds) / 3600, 0));
  const methods = { counterfactual: 0, comparableDays: 0, sameDay: 0, none: 0 };
  const methodKey = { counterfactual: 'counterfactual', 'comparable-days': 'comparableDays', 'same-day': 'sameDay', none: 'none' } as const;
  for (const n of m.nodes) if (n.answer === 'ACCEPTED') methods[methodKey[n.baseline.method]]++;
  const vppErrors = await repo.vppBaselineErrors(ctx.db, d.powerstation_id, d.start_time - 90 * 86_400);
  const money = await intervalMoney(ctx, m, d.type !== 'RERT' && seesMarketData(user), now);
  const measurement: DispatchMeasurement = {
    totals: {
      requestedKwh: kwh((iv) => iv.requestedKw),
      baselineKwh: kwh((iv) => iv.baselineKw),
      measuredKwh: kwh((iv) => iv.measuredKw),
      deliveredKwh: kwh((iv) => iv.deliveredKw),
      rejectedKwh: mapValues(m.intervals[0]?.rejectedKw ?? { optedOut: 0, offline: 0, notAllocated: 0 }, (_, k) => kwh((iv) => iv.rejectedKw[k])),
      notDeliveredKwh: mapValues(m.intervals[0]?.notDeliveredKw ?? { offline: 0, stateOfCharge: 0, inverterLimit: 0, household: 0 }, (_, k) =>
        kwh((iv) => iv.notDeliveredKw[k]),
      ),
    },
    intervals: m.intervals.map((iv, k) => ({
      ...iv,
      ...money[k],
      requestedKw: round3(iv.requestedKw),
      baselineKw: round3(iv.baselineKw),
      measuredKw: round3(iv.measuredKw),
      deliveredKw: round3(iv.deliveredKw),
      rejectedKw: mapValues(iv.rejectedKw, (v) => round3(v)),
      notDeliveredKw: mapValues(iv.notDeliveredKw, (v) => round3(v)),
    })),
    baselineMethods: methods,
    baselineError: m.baselineError,
    vppBaselineError: { dispatches: vppErrors.length, median: medianOf(vppErrors) },
  };
  return { interval: STEP_S, series: Object.fromEntries(r.series), total: r.total, measurement, venResponses: r.external };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;
/** An object's values mapped, its keys kept. */
const mapValues = <K extends string>(o: Record<K, number>, f: (v: number, k: K) => number) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v as number, k as K)])) as Record<K, number>;

const cents = (v: number) => Math.round(v * 100) / 100 + 0;

/**
 * The dispatch's cost (spec 3 §3.3), for those who see market data: before its start the forecast
 * price of the request (as `GET /dispatch/price` answers it); from the start an ESTIMATE from the
 * energy delivered so far at each interval's 5-minute price; once settled (SETTLEMENT_DELAY_S after
 * the end), the SETTLED figures of each node's energy at its region's 5-minute prices.
 */
export async function dispatchCost(ctx: AppContext, user: AuthUser, id: number) {
  requireMarketAccess(user);
  const d = await requireDispatch(ctx, user, id);
  const [settled, stored] = await Promise.all([findSettlement(ctx.db, id), dispatchQuote(ctx.db, id)]);
  const quote = stored
    ? {
        cost: cents(stored.cost),
        tradingPrice: cents(stored.tradingPrice),
        quotedAt: stored.quotedAt,
        forecastIssuedAt: stored.forecastIssuedAt,
        forecastSource: stored.forecastSource,
      }
    : null;
  // The outcome less the quote: what the forecast missed (positive: it cost more, or earned less, than quoted).
  const versus = (cost: number | null) => ({ quote, difference: quote && cost !== null ? cents(cost - quote.cost) : null });
  if (settled)
    return {
      type: 'SETTLED' as const,
      cost: cents(settled.cost),
      buyPrice: settled.buy_price === null ? null : cents(settled.buy_price),
      sellPrice: settled.sell_price === null ? null : cents(settled.sell_price),
      coverage: Math.round(settled.coverage * 1000) / 1000,
      reason: null,
      ...versus(cents(settled.cost)),
    };
  const now = nowS();
  const estimate = await dispatchPrice(
    ctx,
    user,
    { powerstation: d.powerstation_id, startTime: d.start_time, duration: d.duration, realPowerP: d.real_power_p },
    Math.min(now, d.start_time),
  );
  if (now < d.start_time)
    return {
      type: 'DISPATCH_NOT_STARTED' as const,
      cost: estimate.dispatchPrice,
      buyPrice: null,
      sellPrice: null,
      coverage: null,
      reason: estimate.reason,
      quote,
      difference: null,
    };
  if (!estimate.region)
    return { type: 'ESTIMATE' as const, cost: null, buyPrice: null, sellPrice: null, coverage: null, reason: estimate.reason, quote, difference: null };
  const r = await measuredResponse(ctx, d);
  const prices = new Map(
    (await settlementPrices(ctx, estimate.region as NemRegion, d.start_time, d.start_time + d.duration, now)).map((p) => [p.start, p.price]),
  );
  // Buy and sell prices weighted by the energy of each interval, as settlement weighs them.
  let cost = 0;
  const buy = { kwh: 0, value: 0 };
  const sell = { kwh: 0, value: 0 };
  for (const [ts, p] of r.series) {
    const rrp = prices.get(ts);
    if (rrp === undefined) continue;
    cost += (p.deliveredKwh * rrp) / 1000;
    const side = p.deliveredKwh > 0 ? buy : p.deliveredKwh < 0 ? sell : null;
    if (side) {
      side.kwh += Math.abs(p.deliveredKwh);
      side.value += Math.abs(p.deliveredKwh) * rrp;
    }
  }
  const weighted = (w: { kwh: number; value: number }) => (w.kwh > 0 ? cents(w.value / w.kwh) : null);
  return {
    type: 'ESTIMATE' as const,
    cost: cents(cost),
    buyPrice: weighted(buy),
    sellPrice: weighted(sell),
    coverage: r.coverage,
    reason: null,
    ...versus(cents(cost)),
  };
}
