import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { type DispatchStrategy, onTimeStep } from '@vpp/shared/dispatches/rules';
import { RERT_MESSAGES } from '@vpp/shared/rert/messages';
import type { CreateRertBody, RescheduleRertBody } from '@vpp/shared/rert/schemas';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, sendCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { crashPoint } from '../../platform/crash-points.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import * as d from '../dispatches/index.ts';
import { audit, moveUpcomingEvent, reportingBatteries, withdrawEvent } from '../events/index.ts';
import { requirePowerstation } from '../vpps/index.ts';
import * as repo from './rert.repo.ts';

// RERT dispatches (spec 3 §2.5, §3.4, §4.2, §7): a dispatch event of type RERT, created, moved and
// called off here; the dispatch engine sends its orders, measures and settles it like any dispatch.

/**
 * A RERT activation asks the reserve to deliver: a discharge, or (the flow's default power 0) a
 * lockout. Checked and stored by the dispatch rules (§4.1, §5): no power factor, the standard title.
 */
export async function createRert(ctx: AppContext, user: AuthUser, body: CreateRertBody, now = nowS()): Promise<{ id: number }> {
  if (body.realPowerP > 0) throw badRequest(RERT_MESSAGES.dischargeOnly);
  const { instruction: i, contract: c, ...request } = body;
  // AEMO's instruction and the reserve contract (issue 33 item 3), written with the event or not at all.
  const alongside =
    i && c
      ? (trx: Database, id: number) =>
          d.storeRertActivation(trx, {
            event_id: id,
            instruction_id: i.id,
            notice_category: i.noticeCategory,
            lor_condition: i.lorCondition,
            pre_activated_at: i.preActivationTime,
            activated_at: i.activationTime,
            contract_ref: c.reference,
            contract_mw: c.contractedMw,
            availability_rate: c.availabilityRate,
            pre_activation_rate: c.preActivationRate,
            activation_rate: c.activationRate,
            usage_rate: c.usageRate,
            customer_share: c.customerShare,
          })
      : undefined;
  return d.createDispatch(ctx, user, { ...request, powerFactor: null, powerFactorLeadLag: null, messageTitle: null }, d.RERT_EVENT, now, null, alongside);
}

/** The event's row inside a transaction, locked until it ends on PostgreSQL (SQLite runs one writer at a time). */
const lockedEvent = (trx: Database, ctx: AppContext, id: number) => repo.lockedRert(trx, id, ctx.dialect === 'postgres');

/**
 * Only an UPCOMING RERT dispatch changes: decided in the transaction that changes it, from the
 * locked row and the clock read inside it, and held by the update's own condition
 * (`start_time > now`), so a change racing the start either lands before it or is refused, never both.
 */
function requireUpcoming(e: { start: number; cancelled: boolean }, now: number) {
  if (e.cancelled) throw conflict(RERT_MESSAGES.alreadyCancelled);
  if (now >= e.start) throw conflict(RERT_MESSAGES.onlyUpcoming);
}

const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** Calls off an upcoming RERT dispatch: any orders sent are withdrawn and the audit says who. */
export async function cancelRert(ctx: AppContext, user: AuthUser, id: number, clock: () => number = nowS): Promise<void> {
  await d.requireDispatch(ctx, user, id, d.RERT_EVENT);
  await ctx.db.transaction().execute(async (trx) => {
    const e = await lockedEvent(trx, ctx, id);
    const now = clock();
    requireUpcoming(e, now);
    if (!(await withdrawEvent(trx, { id, source: d.commandSource(id), userId: user.id, now, upcomingOnly: true }))) throw conflict(RERT_MESSAGES.onlyUpcoming);
  });
}

/**
 * Moves an upcoming RERT dispatch to a new window (and optionally a new customer message). It is
 * allocated again from the batteries' state now and, in one transaction with the move: the old
 * orders are withdrawn, and nodes that had received the old window are sent the new one (when it is
 * within the engine's 24-hour lead; otherwise the engine sends it when it is). The audit records the
 * change.
 */
export async function rescheduleRert(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  body: RescheduleRertBody,
  clock: () => number = nowS,
): Promise<{ id: number }> {
  const row = await d.requireDispatch(ctx, user, id, d.RERT_EVENT);
  if (!onTimeStep(body.startTime)) throw badRequest(DISPATCH_MESSAGES.startStep);
  if (body.duration % 300 !== 0) throw badRequest(DISPATCH_MESSAGES.durationStep);
  const checkedAt = clock();
  if (body.startTime < checkedAt) throw badRequest(DISPATCH_MESSAGES.startInPast);
  const ps = await requirePowerstation(ctx, user, row.powerstation_id);
  const nodes = (await reportingBatteries(ctx.db, ps, checkedAt)).map(d.allocNode);
  const strategy = row.strategy as DispatchStrategy;
  const allocation = d.allocationFor(nodes, body.startTime, body.duration, row.real_power_p, strategy);
  const ids = allocation.map((a) => a.nodeId);
  const end = body.startTime + body.duration;
  return ctx.db.transaction().execute(async (trx) => {
    const e = await lockedEvent(trx, ctx, id);
    const now = clock();
    requireUpcoming(e, now);
    if (ctx.dialect === 'postgres') await d.lockNodes(trx, ids);
    const other = await d.overlapping(trx, row.organisation_id, ids, body.startTime, end, id);
    if (other !== undefined) throw badRequest(DISPATCH_MESSAGES.overlaps(other), 'dispatch_overlaps');
    if (!(await moveUpcomingEvent(trx, id, body.startTime, body.duration, now))) throw conflict(RERT_MESSAGES.onlyUpcoming);
    const message = row.real_power_p === 0 || body.customerAppMessage === undefined ? {} : { customer_message: body.customerAppMessage || null };
    // Orders go out again now when the nodes had the old window and the new one is within the lead.
    const sendNow = e.ordersSent && body.startTime <= now + d.ORDER_LEAD_S;
    await d.resetOrders(trx, id, sendNow ? now : null, message);
    const source = d.commandSource(id);
    await cancelCommands(trx, source, now);
    await d.storeAllocation(trx, id, allocation);
    // The crash tests' kill -9 between the old orders' withdrawal and the new ones.
    crashPoint('rert-reschedule');
    if (sendNow) {
      await sendCommands(trx, d.commandsOf(id, allocation), { organisationId: row.organisation_id });
      await d.markNodesSent(trx, id, now, row.real_power_p !== 0);
    }
    const detail = `Rescheduled from ${iso(e.start)} for ${e.duration / 60} min to ${iso(body.startTime)} for ${body.duration / 60} min.`;
    await audit(trx, id, 'CHANGED', user.id, now, detail);
    return { id };
  });
}
