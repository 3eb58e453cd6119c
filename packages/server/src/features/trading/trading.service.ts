import { POWER_FACTOR_MAX } from '@vpp/shared/dispatches/rules';
import {
  BACKTEST_MAX_DAYS,
  BACKTEST_MESSAGES,
  BACKTEST_REPLAN_S,
  type Backtest,
  type BacktestBody,
  type BacktestFigures,
  DEFAULT_TRADING_POLICY,
  TRADING_FORECAST_MAX_AGE_S,
  TRADING_HORIZON_S,
  TRADING_MESSAGES,
  TRADING_STEP_S,
  type TradingPolicy,
  type TradingState,
} from '@vpp/shared/trading/schemas';
import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { PRECEDENCE } from '../../devices/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY, forecastPower } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { defineJob, enqueueJob, type JobLog } from '../../platform/jobs.ts';
import { callerOf } from '../auth/index.ts';
import { type AllocNode, AUTOMATIC, allocNode, cancelDispatch, constraints, createDispatch, dispatchResponse } from '../dispatches/index.ts';
import { reportingBatteries, toModelNode } from '../events/index.ts';
import { actualPrices, latestForecast, requireMarketAccess, settlementPrices, vppRegion } from '../market/index.ts';
import { notifyUser } from '../notifications/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
import { backtest, backtestInWorker, type PreparedBacktest } from './trading.backtest.ts';
import { type Plan, PlanError, plan } from './trading.optimiser.ts';
import * as repo from './trading.repo.ts';

/** NEM market time is UTC+10 all year: the policy's hours and its days are in it. */
const MARKET_OFFSET_S = 10 * 3600;
export const marketHour = (t: number) => Math.floor(((((t + MARKET_OFFSET_S) % 86_400) + 86_400) % 86_400) / 3600);
export const marketDay = (t: number) => Math.floor((t + MARKET_OFFSET_S) / 86_400);

const intervalStart = (t: number) => t - (t % TRADING_STEP_S);
const HOURS = TRADING_STEP_S / 3600;
/** An automatic dispatch covers at most an hour: the plan is re-made every 5 minutes, and a block acts on the latest one. */
const MAX_BLOCK_INTERVALS = 12;
/** A price this far above what the plan assumed for the current interval re-plans at once. */
const SPIKE = { ratio: 2, overDollars: 300 };

function policyOf(row: repo.PolicyRow | undefined): TradingPolicy {
  if (!row) return DEFAULT_TRADING_POLICY;
  return {
    mode: row.mode as TradingPolicy['mode'],
    fromHour: row.from_hour,
    toHour: row.to_hour,
    maxPowerKw: row.max_power_kw,
    minSocPct: row.min_soc_pct,
    maxCyclesPerDay: row.max_cycles_per_day,
    degradationCostPerMWh: row.degradation_cost,
    gridCharging: row.grid_charging === 1,
  };
}

/** A VPP's trading policy as set, or the defaults. */
export const tradingPolicyOf = async (ctx: AppContext, psId: number): Promise<TradingPolicy> => policyOf(await repo.findPolicy(ctx.db, psId));

/** The VPP's reporting batteries now, each as the allocation sees it, and all of them as one store. */
export interface VppStore {
  nodes: AllocNode[];
  capacity: number;
  stored: number;
  /** Each battery's floor: the higher of its customer's reserve and the policy's lowest state of charge. */
  floor: number;
  /** The batteries' power together, kW; `power` is that held within the policy's most power. */
  batteryPower: number;
  power: number;
}

/** The VPP's batteries as one store, from their state now (the policy's floor and most power; the defaults without one). */
export async function vppStore(ctx: AppContext, ps: PowerstationRow, now: number, policy: TradingPolicy = DEFAULT_TRADING_POLICY): Promise<VppStore> {
  const nodes = (await reportingBatteries(ctx.db, ps, now)).map(allocNode);
  let capacity = 0;
  let stored = 0;
  let floor = 0;
  let power = 0;
  for (const n of nodes) {
    capacity += n.usableKwh;
    stored += n.socKwh;
    // Each customer's own reserve binds where it is above the policy's floor.
    floor += Math.max(n.reserveKwh, (n.usableKwh * policy.minSocPct) / 100);
    power += n.maxKw;
  }
  return { nodes, capacity, stored, floor, batteryPower: power, power: policy.maxPowerKw === null ? power : Math.min(power, policy.maxPowerKw) };
}

/** Energy already drawn from the store by automatic dispatches earlier in the market day of `now`, kWh (as planned). */
async function drawnToday(ctx: AppContext, psId: number, now: number): Promise<number> {
  const dayStart = marketDay(now) * 86_400 - MARKET_OFFSET_S;
  const ran = await repo.automaticDispatchesIn(ctx.db, psId, dayStart, now);
  let kwh = 0;
  for (const d of ran) {
    if (d.real_power_p >= 0) continue;
    const end = Math.min(d.start_time + d.duration, d.cancelled_at ?? Number.POSITIVE_INFINITY, now);
    kwh += (-d.real_power_p * Math.max(0, end - Math.max(d.start_time, dayStart))) / 3600 / BATTERY_ONE_WAY_EFFICIENCY;
  }
  return kwh;
}

/**
 * Other VPPs' events on the VPP's homes over the horizon (docs/precedence.md), per interval: the
 * battery power of the homes they hold, kW. A home counts as held by a grid outage (whoever's), by
 * another organisation's event with precedence (a network's over a retailer's, or any of the same
 * rank: it was given first), and by a dispatch of the organisation's own other VPPs, which would have
 * the automatic dispatch refused: such an interval counts all the power as held.
 */
async function othersOnSharedHomes(ctx: AppContext, ps: PowerstationRow, store: VppStore, start: number, end: number) {
  const n = Math.round((end - start) / TRADING_STEP_S);
  const heldKw = new Float64Array(n);
  const kwOf = new Map(store.nodes.map((x) => [x.id, x.maxKw]));
  const held = await repo.heldElsewhere(ctx.db, ps.id, [...kwOf.keys()], start, end);
  if (!held.length) return { heldKw };
  const mine = PRECEDENCE[((await repo.organisationType(ctx.db, ps.organisation_id)) ?? 'RETAILER') as keyof typeof PRECEDENCE];
  const perInterval = Array.from({ length: n }, () => new Set<number>());
  for (const e of held) {
    const own = e.organisationId === ps.organisation_id && e.organisationType !== null;
    const binds = own || e.organisationType === null || PRECEDENCE[e.organisationType as keyof typeof PRECEDENCE] <= mine;
    if (!binds) continue;
    const first = Math.max(0, Math.floor((e.start - start) / TRADING_STEP_S));
    const last = Math.min(n, Math.ceil((e.end - start) / TRADING_STEP_S));
    for (let t = first; t < last; t++) {
      if (own) heldKw[t] = Number.POSITIVE_INFINITY;
      else perInterval[t].add(e.nodeId);
    }
  }
  for (let t = 0; t < n; t++) for (const id of perInterval[t]) heldKw[t] += kwOf.get(id) ?? 0;
  return { heldKw };
}

/** The homes whose forecast stands for a VPP's solar surplus: every home of a small VPP, an even sample of a large one. */
const SURPLUS_SAMPLE = 200;
/** A VPP's surplus forecast is made again when this old: the profiles change by the day and the weather by the hour. */
const SURPLUS_TTL_S = 3600;
const surplusCache = new WeakMap<object, Map<number, { madeAt: number; nodes: number; kw: Map<number, number> }>>();

/**
 * Without grid charging, the most the batteries can charge in each interval: each home's solar
 * surplus (the console's own forecast of its solar less its load, from what it measured and the
 * weather: forecastPower), within its battery's power, summed over the homes. A large VPP is
 * forecast from an even sample of SURPLUS_SAMPLE homes, scaled by their share of the battery power;
 * the forecast of a VPP is kept for an hour (a re-plan every 5 minutes reads it again).
 */
async function solarSurplus(ctx: AppContext, psId: number, store: VppStore, start: number, count: number, now: number): Promise<number[]> {
  const byVpp = surplusCache.get(ctx.db) ?? new Map();
  surplusCache.set(ctx.db, byVpp);
  const kept = byVpp.get(psId);
  const end = start + count * TRADING_STEP_S;
  if (kept && kept.madeAt > now - SURPLUS_TTL_S && kept.nodes === store.nodes.length && kept.kw.has(end - TRADING_STEP_S))
    return Array.from({ length: count }, (_, k) => kept.kw.get(start + k * TRADING_STEP_S) ?? 0);
  const every = Math.max(1, Math.ceil(store.nodes.length / SURPLUS_SAMPLE));
  const sample = store.nodes.filter((_, i) => i % every === 0);
  const sampleKw = sample.reduce((a, n) => a + n.maxKw, 0);
  const scale = sampleKw > 0 ? store.batteryPower / sampleKw : 0;
  const rows = await repo.modelNodes(
    ctx.db,
    sample.map((n) => n.id),
  );
  const kwOf = new Map(sample.map((n) => [n.id, n.maxKw]));
  const nodes = rows.map(toModelNode);
  // An hour past the horizon: the re-plans of the hour find theirs.
  const steps = count + SURPLUS_TTL_S / TRADING_STEP_S;
  const expected = await forecastPower(ctx, nodes, start, steps);
  const kw = new Map<number, number>();
  for (let k = 0; k < steps; k++) {
    let sum = 0;
    for (let i = 0; i < nodes.length; i++) sum += Math.min(kwOf.get(nodes[i].id) ?? 0, Math.max(0, expected.solarKw(i, k) - expected.houseKw(i, k)));
    kw.set(start + k * TRADING_STEP_S, sum * scale);
  }
  byVpp.set(psId, { madeAt: now, nodes: store.nodes.length, kw });
  return Array.from({ length: count }, (_, k) => kw.get(start + k * TRADING_STEP_S) ?? 0);
}

export interface PlanOutcome {
  plan: Plan | null;
  suspended: string | null;
}

/**
 * Makes the VPP's plan for the 24 hours from the next interval: the store now, the forecast prices
 * of its region, the policy's limits, and the VPP's standing events (an operator's dispatch fixes its
 * intervals; an outage preparation or a curtailment allows no discharge in its window). Stores the plan
 * and returns it, or why there is none.
 */
export async function makePlan(ctx: AppContext, ps: PowerstationRow, row: repo.PolicyRow, now = nowS()): Promise<PlanOutcome> {
  const policy = policyOf(row);
  const start = intervalStart(now) + TRADING_STEP_S;
  const end = start + TRADING_HORIZON_S;
  const region = await vppRegion(ctx, ps);
  if (!region) return suspend(ctx, ps.id, TRADING_MESSAGES.outsideNem);
  const store = await vppStore(ctx, ps, now, policy);
  if (!store.nodes.length) return suspend(ctx, ps.id, TRADING_MESSAGES.noBatteries);
  // The forecast as issued now (AEMO's imported runs, or the model's where none is recent): never an actual price.
  const forecast = await latestForecast(ctx, region, start, end, now);
  // The next interval's forecast is the freshest the plan has: when even that is old, no new dispatch is made from it.
  if (!forecast.length || now - forecast[0].issuedAt > TRADING_FORECAST_MAX_AGE_S) return suspend(ctx, ps.id, TRADING_MESSAGES.staleForecast);
  const n = forecast.length;
  const discharge: number[] = [];
  const charge: number[] = [];
  const fixed: (number | null)[] = [];
  const events = await repo.standingEvents(ctx.db, ps.id, start, end);
  const others = await othersOnSharedHomes(ctx, ps, store, start, end);
  const surplus = policy.gridCharging ? null : await solarSurplus(ctx, ps.id, store, start, n, now);
  for (let t = 0; t < n; t++) {
    const at = start + t * TRADING_STEP_S;
    const h = marketHour(at);
    const open = h >= policy.fromHour && h < policy.toHour;
    // What the homes other events hold leave of the batteries' power (none where the organisation's own other dispatch holds one).
    const free = Math.max(0, Math.min(store.power, store.batteryPower - others.heldKw[t]));
    discharge.push(open ? free : 0);
    charge.push(open ? Math.min(free, surplus ? surplus[t] : free) : 0);
    fixed.push(null);
    for (const e of events) {
      if (e.origin === AUTOMATIC || at < e.start_time || at >= e.start_time + e.duration) continue;
      if (e.real_power_p !== null) fixed[t] = e.real_power_p;
      else discharge[t] = 0;
    }
  }
  const today = marketDay(start);
  const budget = policy.maxCyclesPerDay * store.capacity;
  const drawn = await drawnToday(ctx, ps.id, now);
  try {
    const made = await plan({
      start,
      stepS: TRADING_STEP_S,
      prices: forecast.map((p) => p.rrp),
      maxDischargeKw: discharge,
      maxChargeKw: charge,
      fixedKw: fixed,
      capacityKwh: store.capacity,
      storedKwh: store.stored,
      floorKwh: store.floor,
      efficiency: BATTERY_ONE_WAY_EFFICIENCY,
      degradationPerMWh: policy.degradationCostPerMWh,
      dischargeBudgetKwh: [Math.max(0, budget - drawn), budget],
      dayOf: (at) => Math.min(1, marketDay(at) - today),
    });
    await repo.replacePlan(
      ctx.db,
      ps.id,
      start,
      made.intervals.map((i) => ({ interval_start: i.start, kw: i.kw, price: i.price, stored_kwh: i.storedKwh, revenue: i.revenue, planned_at: now })),
    );
    await repo.markPlanned(ctx.db, ps.id, now, null);
    return { plan: made, suspended: null };
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    const first = row.suspended !== TRADING_MESSAGES.solverFailed;
    await repo.markPlanned(ctx.db, ps.id, null, TRADING_MESSAGES.solverFailed);
    if (first)
      await notifyUser(ctx, row.updated_by, { summary: `Automatic trading of ${ps.name} is paused`, body: `${TRADING_MESSAGES.solverFailed} (${e.message})` });
    return { plan: null, suspended: TRADING_MESSAGES.solverFailed };
  }
}

async function suspend(ctx: AppContext, psId: number, why: string): Promise<PlanOutcome> {
  await repo.markPlanned(ctx.db, psId, null, why);
  return { plan: null, suspended: why };
}

/**
 * The plan's next block as a dispatch: when nothing of the VPP's is planned to run at the next
 * interval, the block of intervals from it with the same direction and about the same power (within a
 * tenth of the VPP's power, an hour at most) becomes one dispatch with the reason "Automatic", made in
 * the name of whoever set the policy, through the same checks as a hand-made one. Its power is the
 * block's mean, held within what the batteries can give for the block now.
 */
async function dispatchNextBlock(ctx: AppContext, ps: PowerstationRow, row: repo.PolicyRow, made: Plan, now: number): Promise<number | null> {
  const first = made.intervals[0];
  if (!first || Math.abs(first.kw) < 0.1) return null;
  const live = await repo.liveAutomaticDispatches(ctx.db, ps.id, now);
  if (live.some((d) => d.start_time + d.duration > first.start)) return null;
  const user = await callerOf(ctx, row.updated_by, 'done', { kind: 'download' });
  if (!user) return null;
  const store = await vppStore(ctx, ps, now, policyOf(row));
  const block = [first];
  for (const i of made.intervals.slice(1, MAX_BLOCK_INTERVALS)) {
    if (Math.sign(i.kw) !== Math.sign(first.kw) || Math.abs(i.kw - first.kw) > store.power / 10) break;
    block.push(i);
  }
  const duration = block.length * TRADING_STEP_S;
  const mean = block.reduce((s, i) => s + i.kw, 0) / block.length;
  const c = await constraints(ctx, user, ps.id, { duration, realPowerP: mean, powerFactor: POWER_FACTOR_MAX }, now);
  const bounded = Math.min(c.realPowerPMax, Math.max(c.realPowerPMin, mean));
  const kw = Math.trunc(bounded * 10) / 10;
  if (kw === 0) return null;
  try {
    const { id } = await createDispatch(
      ctx,
      user,
      { powerstation: ps.id, startTime: first.start, duration, realPowerP: kw, customerMessage: null, messageTitle: null, strategy: null },
      undefined,
      now,
      AUTOMATIC,
    );
    return id;
  } catch (e) {
    // Another event took the homes for the block (the check at creation is the last word): the next plan works around it.
    if (e instanceof ApiError && e.statusCode === 400) return null;
    throw e;
  }
}

/** Withdraws the VPP's automatic dispatches that have not ended: switching the policy off stops its trading now. */
async function withdraw(ctx: AppContext, psId: number, user: AuthUser, now: number): Promise<void> {
  for (const d of await repo.liveAutomaticDispatches(ctx.db, psId, now)) {
    try {
      await cancelDispatch(ctx, user, d.id);
    } catch (e) {
      // Ended or cancelled in the meantime.
      if (!(e instanceof ApiError && e.statusCode === 400)) throw e;
    }
  }
}

/**
 * One run of automatic trading (every minute): each automatic VPP is planned again when its plan is
 * 5 minutes old or the price of the current interval has spiked beyond what the plan assumed, and its
 * next block becomes a dispatch.
 */
export async function runTrading(ctx: AppContext, now = nowS()): Promise<void> {
  for (const { policy: row, ps } of await repo.automaticPolicies(ctx.db)) {
    const due = row.planned_at === null || row.planned_at <= now - TRADING_STEP_S || (await spiked(ctx, ps, now));
    if (!due) continue;
    const out = await makePlan(ctx, ps, row, now);
    if (out.plan) await dispatchNextBlock(ctx, ps, row, out.plan, now);
  }
  await repo.prunePlan(ctx.db, now - 2 * TRADING_HORIZON_S);
}

/** Whether the current interval's price is beyond what the plan assumed for it. */
async function spiked(ctx: AppContext, ps: PowerstationRow, now: number): Promise<boolean> {
  const at = intervalStart(now);
  const [planned] = await repo.planRows(ctx.db, ps.id, at, at + TRADING_STEP_S);
  if (!planned) return false;
  const region = await vppRegion(ctx, ps);
  if (!region) return false;
  // The newest forecast of the interval now running (issued as it began: the nearest thing to its price).
  const [latest] = await latestForecast(ctx, region, at, at + TRADING_STEP_S, now);
  if (!latest) return false;
  return latest.rrp > planned.price + SPIKE.overDollars && latest.rrp > planned.price * SPIKE.ratio;
}

/** The policy, the plan ahead, and the last day's plan against what the automatic dispatches delivered and earned. */
export async function tradingState(ctx: AppContext, user: AuthUser, id: number, now = nowS()): Promise<TradingState> {
  const ps = await requirePowerstation(ctx, user, id);
  const row = await repo.findPolicy(ctx.db, ps.id);
  const policy = policyOf(row);
  const at = intervalStart(now);
  const ahead = await repo.planRows(ctx.db, ps.id, at + TRADING_STEP_S, at + TRADING_STEP_S + TRADING_HORIZON_S);
  const updater = row ? await repo.userName(ctx.db, row.updated_by) : undefined;
  return {
    policy,
    updatedAt: row?.updated_at ?? null,
    updatedBy: updater ?? (row ? 'Unknown' : null),
    plannedAt: row?.planned_at ?? null,
    suspended: policy.mode === 'AUTOMATIC' ? (row?.suspended ?? null) : null,
    plan:
      policy.mode === 'AUTOMATIC' ? ahead.map((r) => ({ start: r.interval_start, kw: r.kw, price: r.price, storedKwh: r.stored_kwh, revenue: r.revenue })) : [],
    expectedRevenue: policy.mode === 'AUTOMATIC' ? ahead.reduce((s, r) => s + r.revenue, 0) : 0,
    outcome: await outcome(ctx, user, ps, policy, at - TRADING_HORIZON_S, at),
  };
}

/** The measured response of settled dispatches (final: settlement waits for the telemetry to cover them), by dispatch. */
const responseCache = new WeakMap<object, Map<number, [number, number][]>>();
const RESPONSE_CACHE_MAX = 5000;

/**
 * A dispatch's measured power at the meter by interval (dispatchResponse: the measured meter against
 * its baseline). A settled dispatch's is read once and kept: the page asks every minute for each
 * automatic dispatch of the last day, and each answer reads days of baselines.
 */
async function measuredSeries(ctx: AppContext, user: AuthUser, id: number, settled: boolean): Promise<[number, number][]> {
  const cache = responseCache.get(ctx.db) ?? new Map<number, [number, number][]>();
  responseCache.set(ctx.db, cache);
  const kept = cache.get(id);
  if (kept) return kept;
  const series = Object.entries((await dispatchResponse(ctx, user, id)).series).map(([ts, p]) => [Number(ts), p.realPowerP] as [number, number]);
  if (settled) {
    if (cache.size >= RESPONSE_CACHE_MAX) cache.clear();
    cache.set(id, series);
  }
  return series;
}

async function outcome(
  ctx: AppContext,
  user: AuthUser,
  ps: PowerstationRow,
  policy: TradingPolicy,
  from: number,
  to: number,
): Promise<TradingState['outcome']> {
  const planned = await repo.planRows(ctx.db, ps.id, from, to);
  if (!planned.length) return [];
  const region = await vppRegion(ctx, ps);
  const prices = region ? new Map((await settlementPrices(ctx, region, from, to)).map((p) => [p.start, p.price])) : new Map<number, number>();
  const delivered = new Map<number, number>();
  const ran = await repo.automaticDispatchesIn(ctx.db, ps.id, from, to);
  const settled = await repo.settledIds(
    ctx.db,
    ran.map((d) => d.id),
  );
  for (const d of ran) for (const [ts, kw] of await measuredSeries(ctx, user, d.id, settled.has(d.id))) delivered.set(ts, (delivered.get(ts) ?? 0) + kw);
  return planned.map((p) => {
    const price = prices.get(p.interval_start) ?? null;
    const kw = delivered.get(p.interval_start) ?? null;
    const earned = price === null || kw === null ? null : (-kw * price * HOURS) / 1000 - (Math.abs(kw) * policy.degradationCostPerMWh * HOURS) / 1000;
    return { start: p.interval_start, plannedKw: p.kw, plannedRevenue: p.revenue, actualPrice: price, deliveredKw: kw, earned };
  });
}

/**
 * Sets the VPP's policy. Automatic trading needs the market's prices (retailers and traders) and a
 * VPP that can be dispatched; switching it off withdraws the automatic dispatches not yet ended.
 */
export async function setPolicy(ctx: AppContext, user: AuthUser, id: number, body: TradingPolicy, now = nowS()): Promise<TradingState> {
  requireMarketAccess(user);
  const ps = await requirePowerstation(ctx, user, id);
  if (ps.type === 'FCAS') throw badRequest(TRADING_MESSAGES.fcas);
  if (body.mode === 'AUTOMATIC' && !(await vppRegion(ctx, ps))) throw badRequest(TRADING_MESSAGES.outsideNem);
  const before = await repo.findPolicy(ctx.db, ps.id);
  const row: repo.PolicyRow = {
    powerstation_id: ps.id,
    organisation_id: ps.organisation_id,
    mode: body.mode,
    from_hour: body.fromHour,
    to_hour: body.toHour,
    max_power_kw: body.maxPowerKw,
    min_soc_pct: body.minSocPct,
    max_cycles_per_day: body.maxCyclesPerDay,
    degradation_cost: body.degradationCostPerMWh,
    grid_charging: body.gridCharging ? 1 : 0,
    updated_by: user.id,
    updated_at: now,
    planned_at: null,
    suspended: null,
  };
  await repo.savePolicy(ctx.db, row);
  if (body.mode === 'OFF') {
    if (before?.mode === 'AUTOMATIC') await withdraw(ctx, ps.id, user, now);
  } else await makePlan(ctx, ps, row, now);
  return tradingState(ctx, user, id, now);
}

/** The market day (YYYY-MM-DD, UTC+10) as its start, epoch seconds. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+10:00`) / 1000;

export interface BacktestOptions {
  replanS?: number;
  dischargeAbove?: number;
  chargeBelow?: number;
  onProgress?: (fraction: number) => void | Promise<void>;
  /** Solve in a worker thread (the server); the command line solves in its own thread. */
  inWorker?: boolean;
}

/**
 * The backtest of a VPP's policy over [start, end) (ended market days): its batteries now as one store
 * (vppStore: the policy's floor above each customer's reserve, its most power), half full at the start;
 * the region's actual prices; the forecast as issued at each re-plan (latestForecast: imported runs, or
 * the model's with its error); and the two naive rules. Fetches everything first, then solves.
 */
export async function backtestVpp(
  ctx: AppContext,
  ps: PowerstationRow,
  policy: TradingPolicy,
  start: number,
  end: number,
  opts: BacktestOptions = {},
  now = nowS(),
): Promise<BacktestFigures> {
  const region = await vppRegion(ctx, ps);
  if (!region) throw badRequest(TRADING_MESSAGES.outsideNem);
  const store = await vppStore(ctx, ps, now, policy);
  if (!store.nodes.length || !(store.capacity > 0 && store.power > 0)) throw badRequest(TRADING_MESSAGES.noBatteries);
  const actual = await actualPrices(ctx, region, start, end, now);
  if (actual.length < (end - start) / TRADING_STEP_S) throw badRequest(BACKTEST_MESSAGES.notEnded);
  const replanS = Math.max(TRADING_STEP_S, opts.replanS ?? BACKTEST_REPLAN_S);
  const steps = TRADING_HORIZON_S / TRADING_STEP_S;
  const forecasts: number[][] = [];
  const runs = Math.ceil((end - start) / replanS);
  for (let k = 0; k < runs; k++) {
    const at = start + k * replanS;
    forecasts.push((await latestForecast(ctx, region, at, at + steps * TRADING_STEP_S, at)).map((p) => p.rrp));
    if (k % 48 === 0) await opts.onProgress?.((0.2 * k) / runs);
  }
  const input: PreparedBacktest = {
    start,
    actual: actual.map((p) => p.rrp),
    store: {
      capacityKwh: store.capacity,
      powerKw: store.power,
      floorKwh: store.floor,
      storedKwh: store.capacity / 2,
      efficiency: BATTERY_ONE_WAY_EFFICIENCY,
      degradationPerMWh: policy.degradationCostPerMWh,
      maxCyclesPerDay: policy.maxCyclesPerDay,
    },
    replanS,
    forecasts,
    dischargeAbove: opts.dischargeAbove,
    chargeBelow: opts.chargeBelow,
  };
  let reported = 0;
  const progress = (f: number) => {
    // Every 5 % at most: each report is a write.
    if (f - reported < 0.05) return;
    reported = f;
    void opts.onProgress?.(0.2 + 0.8 * f);
  };
  const r = opts.inWorker
    ? await backtestInWorker(input, progress)
    : await backtest({ ...input, forecast: async (asOf) => forecasts[Math.round((asOf - start) / replanS)] ?? [], onProgress: progress });
  return {
    region,
    capacityKwh: store.capacity,
    powerKw: store.power,
    floorKwh: store.floor,
    replanMinutes: replanS / 60,
    plans: r.plans,
    optimiser: r.optimiser,
    threshold: r.threshold,
    evening: r.evening,
    gainOverBestNaive: r.gainOverBestNaive,
  };
}

/** A backtest as the screen shows it. */
function backtestOf(r: Awaited<ReturnType<typeof repo.listBacktests>>[number]): Backtest {
  return {
    id: r.id,
    firstDay: r.first_day,
    lastDay: r.last_day,
    requestedAt: r.requested_at,
    requestedBy: r.given_name === null ? 'Unknown' : `${r.given_name} ${r.surname ?? ''}`.trim(),
    status: r.status as Backtest['status'],
    progress: r.progress,
    result: r.result === null ? null : (JSON.parse(r.result) as BacktestFigures),
    error: r.error,
  };
}

/** The VPP's last 10 backtests, newest first (market data: retailers and traders). */
export async function listBacktests(ctx: AppContext, user: AuthUser, id: number): Promise<Backtest[]> {
  requireMarketAccess(user);
  const ps = await requirePowerstation(ctx, user, id);
  return (await repo.listBacktests(ctx.db, ps.id, 10)).map(backtestOf);
}

/**
 * Asks for a backtest of the VPP's policy over a period of ended market days, at most
 * BACKTEST_MAX_DAYS long; one at a time per VPP. The job (`trading-backtest`) runs it in a worker
 * thread and records its progress and figures; the reply is the backtest, RUNNING.
 */
export async function startBacktest(ctx: AppContext, user: AuthUser, id: number, body: BacktestBody, now = nowS()): Promise<Backtest> {
  requireMarketAccess(user);
  const ps = await requirePowerstation(ctx, user, id);
  if (ps.type === 'FCAS') throw badRequest(TRADING_MESSAGES.fcas);
  const start = dayStart(body.firstDay);
  const end = dayStart(body.lastDay) + 86_400;
  if (end <= start) throw badRequest(BACKTEST_MESSAGES.order);
  if (end - start > BACKTEST_MAX_DAYS * 86_400) throw badRequest(BACKTEST_MESSAGES.tooLong);
  if (end > now) throw badRequest(BACKTEST_MESSAGES.notEnded);
  if (!(await vppRegion(ctx, ps))) throw badRequest(TRADING_MESSAGES.outsideNem);
  if (!(await vppStore(ctx, ps, now)).nodes.length) throw badRequest(TRADING_MESSAGES.noBatteries);
  if (await repo.backtestRunning(ctx.db, ps.id)) throw badRequest(BACKTEST_MESSAGES.running);
  const backtestId = await ctx.db.transaction().execute(async (trx) => {
    const made = await repo.insertBacktest(trx, {
      powerstation_id: ps.id,
      organisation_id: ps.organisation_id,
      first_day: body.firstDay,
      last_day: body.lastDay,
      period_start: start,
      period_end: end,
      requested_by: user.id,
      requested_at: now,
    });
    await enqueueJob(trx, backtestJob, { id: made });
    return made;
  });
  const [row] = (await repo.listBacktests(ctx.db, ps.id, 10)).filter((r) => r.id === backtestId);
  return backtestOf(row);
}

/** Runs one asked-for backtest (the job): RUNNING until its figures or its failure are recorded. */
export async function runBacktestJob(ctx: AppContext, id: number, log?: JobLog): Promise<void> {
  const row = await repo.findBacktest(ctx.db, id);
  if (row?.status !== 'RUNNING') return;
  const ps = await repo.findPowerstation(ctx.db, row.powerstation_id);
  try {
    if (!ps) throw badRequest('The VPP is gone.');
    const policy = policyOf(await repo.findPolicy(ctx.db, ps.id));
    // Progress is reported without waiting: its writes go one after another, and all before the
    // result's, so that a late one (on another connection of PostgreSQL's pool) never sets a finished
    // backtest back to 95 %. A progress write that fails is only a figure missed.
    let written: Promise<unknown> = Promise.resolve();
    const figures = await backtestVpp(ctx, ps, policy, row.period_start, row.period_end, {
      inWorker: true,
      onProgress: (f) => {
        written = written.then(() => repo.updateBacktest(ctx.db, id, { progress: Math.min(0.99, f) })).catch(() => undefined);
        return written.then(() => undefined);
      },
    });
    await written;
    await repo.updateBacktest(ctx.db, id, { status: 'DONE', progress: 1, result: JSON.stringify(figures), finished_at: nowS() });
  } catch (e) {
    // What the screen can say: the reason of a refusal (the fleet changed since it was asked for), or a plain failure.
    const message = e instanceof ApiError && e.statusCode === 400 ? e.message : BACKTEST_MESSAGES.failed;
    await repo.updateBacktest(ctx.db, id, { status: 'FAILED', error: message, finished_at: nowS() });
    if (!(e instanceof ApiError)) log?.error({ err: e, backtest: id }, 'trading backtest failed');
  }
}

export const backtestJob = defineJob('trading-backtest', z.object({ id: z.number().int() }), async (ctx, payload, run) => {
  await runBacktestJob(ctx, payload.id, run.log);
});
