import { CUSTOMER_APP_MESSAGES } from '@vpp/shared/customer-app/messages';
import { TICKER_UPCOMING_S, type TickerDispatchEvent, tickerText } from '@vpp/shared/dashboard/ticker';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { DISPATCH_EDIT, DISPATCH_POWER_FACTOR, DISPATCH_STRATEGY, DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import { type DispatchStrategy, dispatchPredictionStart, onPowerStep, onTimeStep, POWER_FACTOR_MAX, powerFactorSettable } from '@vpp/shared/dispatches/rules';
import type { CreateDispatchBody, DispatchDetail, DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { GRID_OUTAGE } from '@vpp/shared/outages/messages';
import { hasPermission, satisfies } from '@vpp/shared/permissions/registry';
import { TRADING_MESSAGES } from '@vpp/shared/trading/schemas';
import { VPP_VIEW } from '@vpp/shared/vpps/permissions';

/** The origin of a dispatch that a VPP's trading plan made (issue 35). */
export const AUTOMATIC = 'AUTOMATIC';

import { type Database, nowS } from '../../db/database.ts';
import { endCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { audit, auditTrail, cancelByKind, type EventKind, insertEvent, presentEvent, requireEvent, withdrawEvent } from '../events/index.ts';
import { quoteForDispatch, storeDispatchQuote } from '../market/index.ts';
import { cancelOutage } from '../outages/index.ts';
import { requirePowerstation } from '../vpps/index.ts';
import { STEP_S } from './dispatches.engine.ts';
import { constraints, dispatchableNodes, predictions } from './dispatches.forecast.service.ts';
import { allocationFor, commandSource, customerMessageOf } from './dispatches.orders.ts';
import * as repo from './dispatches.repo.ts';
import { measuredResponse } from './dispatches.response.service.ts';
import { findSettlement } from './dispatches.settlement.service.ts';

// Creating, reading and cancelling dispatches (spec 3 §4.1, §5, §7).

/** The event kinds dispatches are: a dispatch, and a RERT dispatch (its own 404). */
const KINDS: Record<string, EventKind<repo.DispatchRow>> = {
  [repo.DISPATCH_EVENT]: { noun: 'dispatch', find: (db, orgId, id) => repo.findDispatch(db, orgId, id, [repo.DISPATCH_EVENT]) },
  [repo.RERT_EVENT]: { noun: 'RERT dispatch', find: (db, orgId, id) => repo.findDispatch(db, orgId, id, [repo.RERT_EVENT]) },
};

function summary(d: repo.DispatchRow, now: number): DispatchSummary {
  return {
    ...presentEvent(d, now),
    // A RERT dispatch carries its kind as its reason (the list's Event column shows it).
    // An automatic one (a VPP's trading plan made it, issue 35) reads "Automatic" and is triggered.
    reason: d.type === repo.RERT_EVENT ? 'RERT' : d.origin === AUTOMATIC ? TRADING_MESSAGES.automaticReason : null,
    triggered: d.origin === AUTOMATIC,
    // The viewer holds a dispatch permission, which the creator rule of spec 3 §2.4 asks for (createdBy).
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
    const id = await insertEvent(trx, {
      organisation_id: user.organisationId,
      powerstation_id: ps.id,
      type,
      start_time: body.startTime,
      duration: body.duration,
      created_at: now,
    });
    const message = body.realPowerP === 0 ? null : body.customerMessage || null;
    await repo.insertDispatch(trx, {
      event_id: id,
      real_power_p: body.realPowerP,
      power_factor: powerFactor,
      power_factor_lead_lag: powerFactor !== null && powerFactor < POWER_FACTOR_MAX ? leadLag : null,
      strategy,
      message_title: body.realPowerP === 0 ? null : body.messageTitle || DISPATCH_MESSAGES.defaultMessageTitle,
      customer_message: message,
      created_by: user.id,
      origin,
    });
    await repo.storeAllocation(trx, id, allocation);
    if (quote) await storeDispatchQuote(trx, id, quote, now);
    await audit(trx, id, 'CREATED', user.id, now);
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
  return requireEvent(ctx, user, KINDS[type], id);
}

/** A dispatch with its response so far and its audit. */
export async function dispatchDetail(ctx: AppContext, user: AuthUser, id: number, type = repo.DISPATCH_EVENT): Promise<DispatchDetail> {
  const d = await requireDispatch(ctx, user, id, type);
  const now = nowS();
  const [trail, response, rert, settled] = await Promise.all([
    auditTrail(ctx.db, user.organisationId, id),
    measuredResponse(ctx, d),
    repo.rertActivation(ctx.db, id),
    findSettlement(ctx.db, id),
  ]);
  return {
    ...summary(d, now),
    currentResponse: response.total,
    audit: trail,
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

/**
 * Cancels a dispatch that has not ended: its orders are withdrawn from the nodes and the audit says
 * who. A grid outage is cancelled through the same call (spec 3 §7), with its own permission and rules.
 */
export const cancelDispatch = (ctx: AppContext, user: AuthUser, id: number) => cancelByKind(ctx, user, id, { [GRID_OUTAGE]: cancelOutage }, cancelOwn);

async function cancelOwn(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  if (!hasPermission(user.permissions, DISPATCH_EDIT)) throw forbidden();
  const d = await requireDispatch(ctx, user, id);
  const now = nowS();
  if (d.cancelled_at !== null) throw badRequest(DISPATCH_MESSAGES.alreadyCancelled);
  if (d.start_time + d.duration <= now) throw badRequest(DISPATCH_MESSAGES.alreadyEnded);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await withdrawEvent(trx, { id, source: commandSource(id), userId: user.id, now }))) throw badRequest(DISPATCH_MESSAGES.alreadyCancelled);
  });
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

const cents = (v: number) => Math.round(v * 100) / 100 + 0;

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
