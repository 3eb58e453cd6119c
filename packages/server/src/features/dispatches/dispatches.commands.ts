import {
  type CreateDispatchBody,
  CUSTOMER_APP_MESSAGES,
  DISPATCH_EDIT,
  DISPATCH_MESSAGES,
  DISPATCH_POWER_FACTOR,
  DISPATCH_STRATEGY,
  DISPATCH_VIEW,
  type DispatchDetail,
  type DispatchMeasurement,
  type DispatchStrategy,
  type DispatchSummary,
  dispatchPredictionStart,
  eventStateAt,
  hasPermission,
  isNemRegion,
  type NemRegion,
  onPowerStep,
  onTimeStep,
  POWER_FACTOR_MAX,
  powerFactorSettable,
  satisfies,
  TICKER_UPCOMING_S,
  type TickerDispatchEvent,
  TRADING_MESSAGES,
  tickerText,
  VPP_VIEW,
} from '@vpp/shared';

/** The origin of a dispatch that a VPP's trading plan made (issue 35). */
export const AUTOMATIC = 'AUTOMATIC';

import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, endCommands } from '../../fleet/control.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { dispatchPrice, dispatchQuote, quoteForDispatch, requireMarketAccess, seesMarketData, settlementPrices, storeDispatchQuote } from '../market/index.ts';
import { cancelOutage, isOutage } from '../outages/index.ts';
import { requirePowerstation } from '../vpps/index.ts';
import { STEP_S } from './dispatches.engine.ts';
import { medianOf } from './dispatches.measurement.ts';
import { allocationFor, commandSource, customerMessageOf } from './dispatches.orders.ts';
import * as repo from './dispatches.repo.ts';
import { measuredResponse } from './dispatches.response.ts';
import { constraints, dispatchableNodes, predictions } from './dispatches.service.ts';
import { findSettlement } from './dispatches.settlement.ts';

// Creating, reading and cancelling dispatches (spec 3 §4.1, §5, §7).

const stateOf = (d: { start_time: number; duration: number; cancelled_at: number | null }, now: number) =>
  eventStateAt(d.start_time, d.duration, now, d.cancelled_at);

const nameOf = (given: string | null, surname: string | null) => (given === null ? 'Unknown' : `${given} ${surname ?? ''}`.trim());

function summary(d: repo.DispatchRow, now: number): DispatchSummary {
  return {
    id: d.id,
    state: stateOf(d, now),
    // A RERT dispatch carries its kind as its reason (the list's Event column shows it).
    // An automatic one (a VPP's trading plan made it, issue 35) reads "Automatic" and is triggered.
    reason: d.type === repo.RERT_EVENT ? 'RERT' : d.origin === AUTOMATIC ? TRADING_MESSAGES.automaticReason : null,
    triggered: d.origin === AUTOMATIC,
    // The viewer holds a dispatch permission, which the creator rule of spec 3 §2.4 asks for.
    createdBy: nameOf(d.creator_given_name, d.creator_surname),
    createdAt: d.created_at,
    cancelledAt: d.cancelled_at,
    powerstation: { id: d.powerstation_id, name: d.powerstation_name },
    request: {
      startTime: d.start_time,
      duration: d.duration,
      realPowerP: d.real_power_p,
      powerFactor: d.power_factor,
      powerFactorLeadLag: d.power_factor_lead_lag as DispatchSummary['request']['powerFactorLeadLag'],
      strategy: d.strategy as DispatchSummary['request']['strategy'],
      deploymentsRequested: d.deployments,
    },
    customerMessage: customerMessageOf(d),
  };
}

/**
 * Checks a new dispatch against the rules of spec 3 §4.1 and §5 and the VPP's constraints now,
 * allocates it from the batteries' state now and stores it with its allocation, message and audit.
 * The engine re-allocates from the state of 24 hours before the start when it sends the orders.
 * `now` is the clock (the demo creates its past dispatches as at their time, see dispatches.demo.ts).
 */
export async function createDispatch(
  ctx: AppContext,
  user: AuthUser,
  body: CreateDispatchBody,
  type = repo.DISPATCH_EVENT,
  now = nowS(),
  origin: typeof AUTOMATIC | null = null,
  /** Written in the same transaction as the event (a RERT dispatch's instruction and contract). */
  alongside?: (trx: Database, id: number) => Promise<void>,
): Promise<{ id: number }> {
  const ps = await requirePowerstation(ctx, user, body.powerstation);
  if (ps.type === 'FCAS') throw badRequest(DISPATCH_MESSAGES.fcasNotDispatchable);
  const powerFactor = body.powerFactor ?? null;
  if (body.strategy != null && !hasPermission(user.permissions, DISPATCH_STRATEGY)) throw forbidden();
  if (powerFactor !== null && powerFactor < POWER_FACTOR_MAX && !hasPermission(user.permissions, DISPATCH_POWER_FACTOR)) throw forbidden();
  if (!onTimeStep(body.startTime)) throw badRequest(DISPATCH_MESSAGES.startStep);
  if (body.duration % 300 !== 0) throw badRequest(DISPATCH_MESSAGES.durationStep);
  if (body.startTime < now) throw badRequest(DISPATCH_MESSAGES.startInPast);
  if (!onPowerStep(body.realPowerP)) throw badRequest(DISPATCH_MESSAGES.powerStep);
  const lockout = body.realPowerP === 0;
  if (lockout && body.duration > ctx.config.LOCKOUT_MAX_DURATION_S)
    throw badRequest(DISPATCH_MESSAGES.lockoutTooLong(ctx.config.LOCKOUT_MAX_DURATION_S / 3600));
  const c = await constraints(
    ctx,
    user,
    ps.id,
    { duration: body.duration, realPowerP: body.realPowerP, powerFactor: powerFactor ?? POWER_FACTOR_MAX, startTime: body.startTime },
    now,
  );
  if (!c.deploymentsAvailable) throw badRequest(DISPATCH_MESSAGES.noBatteryNodes);
  if (body.realPowerP < c.realPowerPMin - 1e-9 || body.realPowerP > c.realPowerPMax + 1e-9)
    throw badRequest(DISPATCH_MESSAGES.powerOutOfRange(c.realPowerPMin, c.realPowerPMax));
  const leadLag = body.powerFactorLeadLag ?? null;
  if (powerFactor !== null && powerFactor < POWER_FACTOR_MAX) {
    if (!powerFactorSettable(body.realPowerP, c.realPowerAvailable)) throw badRequest(DISPATCH_MESSAGES.powerFactorWhenDischarging);
    if (c.powerFactorConstraintMessage) throw badRequest(c.powerFactorConstraintMessage);
    if (!leadLag) throw badRequest(DISPATCH_MESSAGES.leadLagRequired);
  } else if (leadLag) throw badRequest(DISPATCH_MESSAGES.leadLagNeedsPowerFactor);
  const strategy = body.strategy ?? 'greedy';
  // The nodes a grid outage or another organisation's event with precedence holds then are left out (docs/precedence.md).
  const { nodes } = await dispatchableNodes(ctx, user, ps, body.startTime, body.duration, now);
  const allocation = allocationFor(nodes, body.startTime, body.duration, body.realPowerP, strategy);
  const end = body.startTime + body.duration;
  // The quote: its cost at the forecast prices now, kept to compare with the settled outcome (issue 33 item 2).
  const quote = await quoteForDispatch(ctx, ps, body, now);
  return ctx.db.transaction().execute(async (trx) => {
    // Two creates at once on shared nodes must not both pass the check: the second waits here.
    if (ctx.dialect === 'postgres')
      await repo.lockNodes(
        trx,
        allocation.map((a) => a.nodeId),
      );
    const other = await repo.overlapping(
      trx,
      user.organisationId,
      allocation.map((a) => a.nodeId),
      body.startTime,
      end,
    );
    if (other !== undefined) throw badRequest(DISPATCH_MESSAGES.overlaps(other), 'dispatch_overlaps');
    if (lockout && (await repo.lockoutNodesDuring(trx, user.organisationId, body.startTime, end)) + allocation.length > ctx.config.LOCKOUT_MAX_NODES)
      throw badRequest(DISPATCH_MESSAGES.lockoutTooManyNodes(ctx.config.LOCKOUT_MAX_NODES));
    const { id } = await trx
      .insertInto('events')
      .values({
        organisation_id: user.organisationId,
        powerstation_id: ps.id,
        type,
        start_time: body.startTime,
        duration: body.duration,
        cancelled_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = body.realPowerP === 0 ? null : body.customerMessage || null;
    await trx
      .insertInto('dispatches')
      .values({
        event_id: id,
        real_power_p: body.realPowerP,
        power_factor: powerFactor,
        power_factor_lead_lag: powerFactor !== null && powerFactor < POWER_FACTOR_MAX ? leadLag : null,
        strategy,
        message_title: body.realPowerP === 0 ? null : body.messageTitle || DISPATCH_MESSAGES.defaultMessageTitle,
        customer_message: message,
        created_by: user.id,
        orders_sent_at: null,
        checked_at: null,
        origin,
      })
      .execute();
    await repo.storeAllocation(trx, id, allocation);
    if (quote) await storeDispatchQuote(trx, id, quote, now);
    await repo.audit(trx, id, 'CREATED', user.id, now);
    if (alongside) await alongside(trx, id);
    return { id };
  });
}

/** The organisation's dispatches, a page of them. */
export async function listDispatches(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }, type = repo.DISPATCH_EVENT) {
  const { rows, total } = await repo.listDispatches(ctx.db, user.organisationId, q.limit, q.offset, type);
  const now = nowS();
  return { dispatches: rows.map((r) => summary(r, now)), total };
}

/** A dispatch (of this event type) of the caller's organisation, or 404. */
export async function requireDispatch(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT): Promise<repo.DispatchRow> {
  const d = await repo.findDispatch(ctx.db, user.organisationId, id, [type]);
  if (!d) throw notFound(type === repo.RERT_EVENT ? 'RERT dispatch' : 'dispatch');
  return d;
}

/** A dispatch with its response so far and its audit. */
export async function dispatchDetail(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT): Promise<DispatchDetail> {
  const d = await requireDispatch(ctx, user, id, type);
  const now = nowS();
  const [audit, response, rert, settled] = await Promise.all([
    repo.auditOf(ctx.db, user.organisationId, id),
    measuredResponse(ctx, d),
    repo.rertActivation(ctx.db, id),
    findSettlement(ctx.db, id),
  ]);
  return {
    ...summary(d, now),
    currentResponse: response.total,
    audit: audit.map((a) => ({ action: a.action as 'CREATED', at: a.at, by: nameOf(a.given_name, a.surname), detail: a.detail })),
    rert: rert
      ? {
          instruction: {
            id: rert.instruction_id,
            noticeCategory: rert.notice_category,
            lorCondition: rert.lor_condition,
            preActivationTime: rert.pre_activated_at,
            activationTime: rert.activated_at,
          },
          contract: {
            reference: rert.contract_ref,
            contractedMw: rert.contract_mw,
            availabilityRate: rert.availability_rate,
            preActivationRate: rert.pre_activation_rate,
            activationRate: rert.activation_rate,
            usageRate: rert.usage_rate,
            customerShare: rert.customer_share,
          },
          payments:
            settled && settled.rert_availability !== null
              ? (() => {
                  const p = {
                    availability: cents(settled.rert_availability ?? 0),
                    preActivation: cents(settled.rert_pre_activation ?? 0),
                    activation: cents(settled.rert_activation ?? 0),
                    usage: cents(settled.rert_usage ?? 0),
                  };
                  const total =
                    (settled.rert_availability ?? 0) + (settled.rert_pre_activation ?? 0) + (settled.rert_activation ?? 0) + (settled.rert_usage ?? 0);
                  return { ...p, total: cents(total), customers: cents(total * (settled.rert_customer_share ?? 0)) };
                })()
              : null,
        }
      : null,
  };
}

/** Cancels a dispatch that has not ended: its orders are withdrawn from the nodes and the audit says who. */
export async function cancelDispatch(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  // A grid outage is cancelled through the same call (spec 3 §7), with its own permission and rules.
  if (await isOutage(ctx.db, user.organisationId, id)) return cancelOutage(ctx, user, id);
  if (!hasPermission(user.permissions, DISPATCH_EDIT)) throw forbidden();
  const d = await requireDispatch(ctx, user, id);
  const now = nowS();
  if (d.cancelled_at !== null) throw badRequest(DISPATCH_MESSAGES.alreadyCancelled);
  if (d.start_time + d.duration <= now) throw badRequest(DISPATCH_MESSAGES.alreadyEnded);
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('events').set({ cancelled_at: now }).where('id', '=', id).where('cancelled_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw badRequest(DISPATCH_MESSAGES.alreadyCancelled);
    await cancelCommands(trx, commandSource(id), now);
    await repo.audit(trx, id, 'CANCELLED', user.id, now);
  });
}

/**
 * A customer opts its home out of a dispatch or RERT dispatch in the app (issue 34 item 12): only
 * one whose message reached the home (a lockout sends none, 404), not ended or cancelled (409). The
 * node's orders end now (the part already done stands) and the outbox tells its device; from now its
 * share counts as rejected, opted out, in the response and the settlement, and a re-allocation
 * leaves it out. Twice is the same opt-out.
 */
export async function optOutOfDispatch(ctx: AppContext, nodeId: number, eventId: number): Promise<{ optedOutAt: number }> {
  const row = await repo.appDispatchNode(ctx.db, eventId, nodeId);
  if (!row || row.message_sent_at === null) throw notFound('event');
  if (row.opted_out_at !== null) return { optedOutAt: Number(row.opted_out_at) };
  const now = nowS();
  if (row.cancelled_at !== null || Number(row.start_time) + Number(row.duration) <= now) throw conflict(CUSTOMER_APP_MESSAGES.optOutClosed);
  await ctx.db.transaction().execute(async (trx) => {
    if (await repo.markOptedOut(trx, eventId, nodeId, now)) await endCommands(trx, commandSource(eventId), now, [nodeId]);
  });
  const after = await repo.appDispatchNode(ctx.db, eventId, nodeId);
  return { optedOutAt: Number(after?.opted_out_at ?? now) };
}

/**
 * The organisation's dispatches for the ticker: upcoming within TICKER_UPCOMING_S and in progress,
 * not cancelled, soonest first, with the spec's words; none for a user who may see neither VPPs
 * nor dispatches.
 */
export async function tickerDispatches(ctx: AppContext, user: AuthUser, now = nowS()): Promise<TickerDispatchEvent[]> {
  if (!satisfies(user.permissions, VPP_VIEW) && !satisfies(user.permissions, DISPATCH_VIEW)) return [];
  const rows = await repo.activeDispatches(ctx.db, user.organisationId, now, now + TICKER_UPCOMING_S);
  return rows.map((d) => {
    const state = now < d.start_time ? ('UPCOMING' as const) : ('INPROGRESS' as const);
    const powerstation = { id: d.powerstation_id, name: d.powerstation_name };
    return {
      type: 'DISPATCH' as const,
      id: d.id,
      powerstation,
      state,
      realPowerP: d.real_power_p,
      startTime: d.start_time,
      duration: d.duration,
      text: tickerText({ powerstation, state, realPowerP: d.real_power_p }),
    };
  });
}

/** The organisation's previous customer messages. */
export async function previousMessages(ctx: AppContext, user: AuthUser, type = repo.DISPATCH_EVENT) {
  return { messages: await repo.previousMessages(ctx.db, user.organisationId, 50, type) };
}

/**
 * Each measured interval's settled prices (by NEM region of the accepting nodes) and the value of the
 * energy its measured nodes delivered (Σ kWh × the node's region's price ÷ 1000, AUD), as settlement
 * prices it; empty when not `priced` (a RERT dispatch, a caller without market data).
 */
async function intervalMoney(ctx: AppContext, m: Awaited<ReturnType<typeof measuredResponse>>['measurement'], priced: boolean, now: number) {
  const none = m.intervals.map(() => ({ prices: {} as Record<string, number>, valueAud: null as number | null }));
  if (!priced || !m.intervals.length) return none;
  const accepted = m.nodes.filter((x) => x.answer === 'ACCEPTED');
  const regionOf = new Map<number, string>();
  const ids = accepted.map((x) => x.nodeId);
  for (let i = 0; i < ids.length; i += 1000)
    for (const r of await ctx.db
      .selectFrom('nodes')
      .select(['id', 'region'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      regionOf.set(r.id, r.region);
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
  const methods = { comparableDays: 0, sameDay: 0, none: 0 };
  for (const n of m.nodes)
    if (n.answer === 'ACCEPTED') methods[n.baseline.method === 'comparable-days' ? 'comparableDays' : n.baseline.method === 'same-day' ? 'sameDay' : 'none']++;
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

/** The forecast around the dispatch: from the hour before its start, with and without it. */
export async function dispatchPrediction(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT) {
  const d = await requireDispatch(ctx, user, id, type);
  return predictions(
    ctx,
    user,
    d.powerstation_id,
    {
      start: dispatchPredictionStart(d.start_time),
      dispatchStart: d.start_time,
      dispatchDuration: d.duration,
      dispatchRealPowerP: d.real_power_p,
      strategy: d.strategy as DispatchStrategy,
    },
    d.id,
  );
}

/** Stored energy (kWh) of the dispatch's nodes per 5 minutes, from an hour before its start to an hour after its end (null where no node has reported). */
export async function remainingCharge(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT) {
  const d = await requireDispatch(ctx, user, id, type);
  const from = d.start_time - 3600;
  const to = d.start_time + d.duration + 3600;
  const sums = await repo.remainingSums(ctx.db, ctx.telemetry, d.id, from, to);
  const out: Record<string, number | null> = {};
  for (let ts = from; ts < to; ts += STEP_S) out[ts] = sums.get(ts) ?? null;
  return { interval: STEP_S, remainingCharge: out };
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
