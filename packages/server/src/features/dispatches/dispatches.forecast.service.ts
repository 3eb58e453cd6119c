import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import {
  type DispatchStrategy,
  LEAD_LAG,
  POWER_FACTOR_MAX,
  POWER_FACTOR_MIN,
  POWER_FACTOR_STEP,
  PREDICTION_HORIZON_S,
  powerFactorSettable,
  powerMaxStep,
  powerMinStep,
} from '@vpp/shared/dispatches/rules';
import type { DispatchConstraints, DispatchPredictions } from '@vpp/shared/dispatches/schemas';
import { MARKET_FORECAST_S } from '@vpp/shared/market/rules';
import { nowS } from '../../db/database.ts';
import { netExportCaps, PRECEDENCE } from '../../devices/index.ts';
import { forecastError, forecastPower } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { DEFAULT_TIME_ZONE, forecastSteps, predictionWarning, reportingBatteries, reportingNodes, STEP_S, toForecastNode } from '../events/index.ts';
import { powerstationPrices, seesMarketData } from '../market/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
import { type AllocNode, type Forecast, type ForecastRequest, forecast, sustainableKw } from './dispatches.engine.ts';
import { allocNode } from './dispatches.orders.ts';
import * as repo from './dispatches.repo.ts';

const DAY_S = 86_400;

/**
 * The lowest power factor the inverters can hold while carrying `realPowerP`: each node carries its
 * share of the request (in proportion to its battery's power), and its apparent power, share ÷ power
 * factor, must fit its inverter. Never below 0.7; rounded up to the 0.05 step.
 */
function lowestPowerFactor(nodes: readonly (AllocNode & { inverterKw: number })[], realPowerP: number): number {
  const limit = nodes.reduce((a, n) => a + n.maxKw, 0);
  if (!limit || realPowerP === 0) return POWER_FACTOR_MIN;
  const wanted = Math.min(Math.abs(realPowerP), limit);
  let need = 0;
  for (const n of nodes) if (n.inverterKw > 0) need = Math.max(need, (wanted * n.maxKw) / limit / n.inverterKw);
  const stepped = Math.ceil(Math.round((need / POWER_FACTOR_STEP) * 1e6) / 1e6) * POWER_FACTOR_STEP;
  return Math.round(Math.min(POWER_FACTOR_MAX, Math.max(POWER_FACTOR_MIN, stepped)) * 100) / 100;
}

/**
 * The VPP's reporting batteries a dispatch of the caller's organisation over [start, start +
 * duration) can count on (docs/precedence.md): those that a grid outage or another organisation's
 * event with precedence holds then are left out (`heldElsewhere` counts them, naming nothing), and
 * `ownOverlap` is a dispatch of the organisation's own that already holds some of the rest. `caps`
 * are the network's export limits standing on the nodes then: a node exports at most that (kW).
 */
export async function dispatchableNodes(ctx: AppContext, user: AuthUser, ps: PowerstationRow, start: number, duration: number, now: number) {
  const all = (await reportingBatteries(ctx.db, ps, now)).map(allocNode);
  const ids = all.map((n) => n.id);
  const held = await repo.heldNodes(ctx.db, user.organisationId, PRECEDENCE[user.row.suborg_type], ids, start, start + duration);
  const nodes = all.filter((n) => !held.others.has(n.id));
  const ownOverlap = nodes.some((n) => held.own.has(n.id))
    ? await repo.overlapping(
        ctx.db,
        user.organisationId,
        nodes.map((n) => n.id),
        start,
        start + duration,
      )
    : undefined;
  const caps = await netExportCaps(ctx.db, ids, start, start + duration);
  return { nodes, heldElsewhere: held.others.size, ownOverlap, caps };
}

/**
 * What the VPP can dispatch for `duration` seconds, from its reporting batteries' stored energy now
 * (less the reserve each keeps) and their power limits, and the power factor the inverters allow.
 */
export async function constraints(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  q: { duration: number; realPowerP: number; powerFactor: number; startTime?: number },
  now = nowS(),
): Promise<DispatchConstraints> {
  const ps = await requirePowerstation(ctx, user, id);
  const { nodes, heldElsewhere, ownOverlap, caps } = await dispatchableNodes(ctx, user, ps, q.startTime ?? now, q.duration, now);
  const conflictMessage =
    q.startTime === undefined
      ? null
      : ownOverlap !== undefined
        ? DISPATCH_MESSAGES.overlaps(ownOverlap)
        : heldElsewhere
          ? DISPATCH_MESSAGES.heldElsewhere(heldElsewhere)
          : null;
  if (!nodes.length)
    return {
      realPowerPMin: 0,
      realPowerPMax: 0,
      realPowerAvailable: false,
      powerFactorMin: POWER_FACTOR_MIN,
      powerFactorMax: POWER_FACTOR_MAX,
      powerFactorAvailable: false,
      powerFactorLeadLag: [],
      powerFactorConstraintMessage: DISPATCH_MESSAGES.noBatteryNodes,
      deploymentsAvailable: 0,
      conflictMessage,
    };
  let discharge = 0;
  let charge = 0;
  for (const n of nodes) {
    // A network's export limit binds the discharge too (the limit is at the connection).
    discharge += Math.min(sustainableKw(n, -1, q.duration), caps.get(n.id) ?? Number.POSITIVE_INFINITY);
    charge += sustainableKw(n, 1, q.duration);
  }
  const realPowerPMin = powerMinStep(-discharge);
  const realPowerPMax = powerMaxStep(charge);
  const realPowerAvailable = realPowerPMin < 0 || realPowerPMax > 0;
  const powerFactorMin = lowestPowerFactor(nodes, q.realPowerP);
  let message: string | null = null;
  if (q.powerFactor < POWER_FACTOR_MAX && !powerFactorSettable(q.realPowerP, realPowerAvailable)) message = DISPATCH_MESSAGES.powerFactorWhenDischarging;
  else if (q.powerFactor < powerFactorMin) message = DISPATCH_MESSAGES.powerFactorBelowInverters(powerFactorMin);
  return {
    realPowerPMin,
    realPowerPMax,
    realPowerAvailable,
    powerFactorMin,
    powerFactorMax: POWER_FACTOR_MAX,
    powerFactorAvailable: true,
    powerFactorLeadLag: [...LEAD_LAG],
    powerFactorConstraintMessage: message,
    deploymentsAvailable: nodes.length,
    conflictMessage,
  };
}

/**
 * What a dispatch is expected to deliver on the settlement's basis (dispatches.measurement.service.ts): the
 * change of the homes' meters against their own behaviour (the prediction without the dispatch
 * stands for the baseline), over the buckets of the dispatch the forecast covers; and the warning
 * when it goes against the request (a discharge smaller than the batteries' own discharge for the
 * homes' load raises the homes' import, and so on).
 */
export function expectedDelivery(result: Forecast, start: number, duration: number, realPowerP: number) {
  let expectedKwh = 0;
  let own = 0;
  let steps = 0;
  for (let ts = start; ts < start + duration; ts += STEP_S) {
    const base = result.prediction[ts];
    const adj = result.adjustedPrediction?.[ts];
    if (base?.meterPower == null || adj?.meterPower == null) continue;
    expectedKwh += ((adj.meterPower - base.meterPower) * STEP_S) / 3600;
    own += base.batteryPower ?? 0;
    steps++;
  }
  const ownBatteryKw = steps ? own / steps : 0;
  const r3 = (v: number) => Math.round(v * 1000) / 1000 + 0;
  const wrong = steps > 0 && Math.sign(expectedKwh) !== Math.sign(realPowerP) && Math.abs(expectedKwh) >= 0.001;
  return {
    requestedKwh: r3((realPowerP * duration) / 3600),
    expectedKwh: r3(expectedKwh),
    ownBatteryKw: r3(ownBatteryKw),
    warning: wrong ? DISPATCH_MESSAGES.wrongWayDelivery(realPowerP, ownBatteryKw, expectedKwh) : null,
  };
}

/**
 * The VPP's forecast day from `start` (24 hours at 5 minutes), and with a dispatch given, the same
 * with the dispatch applied through the engine's allocation.
 */
export async function predictions(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  q: { start: number; dispatchStart?: number; dispatchDuration?: number; dispatchRealPowerP?: number; strategy?: DispatchStrategy },
  /** An existing dispatch's prediction: its own id, so that only events with precedence over it hold its nodes. */
  dispatchId = 0,
): Promise<DispatchPredictions> {
  const ps = await requirePowerstation(ctx, user, id);
  const now = nowS();
  if (q.start > now + PREDICTION_HORIZON_S) throw badRequest(DISPATCH_MESSAGES.predictionHorizon);
  const hasDispatch = q.dispatchStart !== undefined && q.dispatchDuration !== undefined;
  if (!hasDispatch && (q.dispatchRealPowerP !== undefined || q.dispatchStart !== undefined || q.dispatchDuration !== undefined))
    throw badRequest(DISPATCH_MESSAGES.dispatchWithoutStart);
  const nodes = (await reportingNodes(ctx.db, ps, now)).map(toForecastNode);
  const realPowerP = q.dispatchRealPowerP ?? 0;
  if (hasDispatch && realPowerP !== 0 && !nodes.some((n) => n.usableKwh > 0 && n.batteryKw > 0)) throw badRequest(DISPATCH_MESSAGES.noBatteryNodes);
  // As the dispatch's range and orders do (dispatchableNodes), the nodes held then by a grid outage or
  // another organisation's event with precedence get no share of it (docs/precedence.md).
  const leftOut = hasDispatch
    ? (
        await repo.heldNodes(
          ctx.db,
          user.organisationId,
          PRECEDENCE[user.row.suborg_type],
          nodes.map((n) => n.id),
          q.dispatchStart as number,
          (q.dispatchStart as number) + (q.dispatchDuration as number),
          dispatchId,
        )
      ).others
    : undefined;
  const req: ForecastRequest = {
    from: now - (now % STEP_S),
    dayStart: q.start,
    dispatch: hasDispatch
      ? { start: q.dispatchStart as number, duration: q.dispatchDuration as number, realPowerP, strategy: q.strategy ?? 'greedy', leftOut }
      : undefined,
  };
  const [expected, error] = await Promise.all([forecastPower(ctx, nodes, req.from, forecastSteps(req)), forecastError(ctx, nodes, now)]);
  const result = forecast(nodes, req, expected);
  // The day's prices come with it for those who see market data, while the forecast reaches that far.
  const marketVisible = seesMarketData(user);
  const pricesAvailable = q.start + DAY_S <= now + MARKET_FORECAST_S;
  const market = marketVisible && pricesAvailable ? (await powerstationPrices(ctx, user, id, { start: q.start, end: q.start + DAY_S })).market : null;
  return {
    delivery:
      hasDispatch && realPowerP !== 0 && result.adjustedPrediction
        ? expectedDelivery(result, q.dispatchStart as number, q.dispatchDuration as number, realPowerP)
        : null,
    interval: STEP_S,
    prediction: result.prediction,
    adjustedPrediction: result.adjustedPrediction,
    warning: predictionWarning(q.start, now, user.row.timezone ?? DEFAULT_TIME_ZONE, marketVisible, pricesAvailable),
    deployments: nodes.length,
    market,
    forecastError: error,
  };
}
