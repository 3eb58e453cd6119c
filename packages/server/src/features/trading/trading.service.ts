import {
  DEFAULT_TRADING_POLICY,
  POWER_FACTOR_MAX,
  TRADING_FORECAST_MAX_AGE_S,
  TRADING_HORIZON_S,
  TRADING_MESSAGES,
  TRADING_STEP_S,
  type TradingPolicy,
  type TradingState,
} from '@vpp/shared';
import { nowS } from '../../db/database.ts';
import { BATTERY_ONE_WAY_EFFICIENCY } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { callerOf } from '../auth/index.ts';
import { AUTOMATIC, allocNode, cancelDispatch, constraints, createDispatch, dispatchResponse, reportingBatteries } from '../dispatches/index.ts';
import { latestForecast, requireMarketAccess, settlementPrices, vppRegion } from '../market/index.ts';
import { notifyUser } from '../notifications/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
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

/** The VPP's batteries as one store, from their state now. */
async function storeOf(ctx: AppContext, ps: PowerstationRow, policy: TradingPolicy, now: number) {
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
  return { nodes: nodes.length, capacity, stored, floor, power: policy.maxPowerKw === null ? power : Math.min(power, policy.maxPowerKw) };
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
  const store = await storeOf(ctx, ps, policy, now);
  if (!store.nodes) return suspend(ctx, ps.id, TRADING_MESSAGES.noBatteries);
  // The forecast as issued now (AEMO's imported runs, or the model's where none is recent): never an actual price.
  const forecast = await latestForecast(ctx, region, start, end, now);
  // The next interval's forecast is the freshest the plan has: when even that is old, no new dispatch is made from it.
  if (!forecast.length || now - forecast[0].issuedAt > TRADING_FORECAST_MAX_AGE_S) return suspend(ctx, ps.id, TRADING_MESSAGES.staleForecast);
  const n = forecast.length;
  const discharge: number[] = [];
  const charge: number[] = [];
  const fixed: (number | null)[] = [];
  const events = await repo.standingEvents(ctx.db, ps.id, start, end);
  for (let t = 0; t < n; t++) {
    const at = start + t * TRADING_STEP_S;
    const h = marketHour(at);
    const open = h >= policy.fromHour && h < policy.toHour;
    discharge.push(open ? store.power : 0);
    charge.push(open && policy.gridCharging ? store.power : 0);
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
  const store = await storeOf(ctx, ps, policyOf(row), now);
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
  for (const row of await repo.automaticPolicies(ctx.db)) {
    const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', row.powerstation_id).executeTakeFirst();
    if (!ps) continue;
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
  const updater = row ? await ctx.db.selectFrom('users').select(['given_name', 'surname']).where('id', '=', row.updated_by).executeTakeFirst() : undefined;
  return {
    policy,
    updatedAt: row?.updated_at ?? null,
    updatedBy: updater ? `${updater.given_name} ${updater.surname}`.trim() : row ? 'Unknown' : null,
    plannedAt: row?.planned_at ?? null,
    suspended: policy.mode === 'AUTOMATIC' ? (row?.suspended ?? null) : null,
    plan:
      policy.mode === 'AUTOMATIC' ? ahead.map((r) => ({ start: r.interval_start, kw: r.kw, price: r.price, storedKwh: r.stored_kwh, revenue: r.revenue })) : [],
    expectedRevenue: policy.mode === 'AUTOMATIC' ? ahead.reduce((s, r) => s + r.revenue, 0) : 0,
    outcome: await outcome(ctx, user, ps, policy, at - TRADING_HORIZON_S, at),
  };
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
  for (const d of await repo.automaticDispatchesIn(ctx.db, ps.id, from, to)) {
    const r = await dispatchResponse(ctx, user, d.id);
    for (const [ts, p] of Object.entries(r.series)) delivered.set(Number(ts), (delivered.get(Number(ts)) ?? 0) + p.realPowerP);
  }
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
