import type { DispatchStrategy } from '@vpp/shared/dispatches/rules';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, type NewCommand, sendCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { dueEvents, eventPowerstation, markChecked, markOrdersSent, reportingBatteries } from '../events/index.ts';
import { STEP_S } from './dispatches.engine.ts';
import * as orders from './dispatches.orders.repo.ts';
import { allocationFor, allocNode, commandSource, customerMessageOf } from './dispatches.orders.ts';
import * as repo from './dispatches.repo.ts';
import { queueDueSettlements } from './dispatches.settlement.service.ts';

/** Nodes act on events only within this long before their start (spec 3 §1). */
export const ORDER_LEAD_S = 86_400;

/**
 * The dispatch engine, run every minute by the worker (a recurring job, so a restart resumes it):
 * it sends each dispatch's orders once it is within 24 hours of its start, and during the event,
 * once per 5 minutes, gives the share of nodes that stopped reporting to the others; after the end
 * it queues the settlement.
 */
export async function runDispatchEngine(ctx: AppContext, now = nowS()): Promise<{ sent: number[]; reallocated: number[]; settling: number[] }> {
  const sent: number[] = [];
  const reallocated: number[] = [];
  const due = await dueEvents(ctx.db, { types: repo.ENGINE_EVENTS, table: 'dispatches', now, leadS: ORDER_LEAD_S });
  const bucket = now - (now % STEP_S);
  for (const row of due) {
    if (row.orders_sent_at === null) {
      if (await sendOrders(ctx, row.id, now)) sent.push(row.id);
    } else if (Number(row.start_time) <= now && (row.checked_at == null || Number(row.checked_at) < bucket)) {
      if (await reallocate(ctx, row.id, now, bucket)) reallocated.push(row.id);
    }
  }
  // Dispatches that ended SETTLEMENT_DELAY_S ago get their settlement job.
  const settling = await queueDueSettlements(ctx, now);
  return { sent, reallocated, settling };
}

/** The orders of an allocation from `from` on, as battery_power commands. */
export function commandsOf(id: number, nodes: readonly repo.DispatchNodeInput[]): NewCommand[] {
  return nodes.flatMap((n) =>
    n.intervals.map((iv) => ({
      nodeId: n.nodeId,
      start: iv.start,
      end: iv.end,
      spec: { kind: 'battery_power' as const, kw: iv.kw },
      source: commandSource(id),
    })),
  );
}

/** The VPP's reporting batteries now, less those another dispatch holds over the same time. */
async function candidates(db: Database, d: repo.DispatchRow, now: number) {
  const ps = await eventPowerstation(db, d.powerstation_id);
  if (!ps) return [];
  const nodes = (await reportingBatteries(db, ps, now)).map(allocNode);
  const busy = await repo.busyNodes(
    db,
    d.organisation_id,
    nodes.map((n) => n.id),
    d.start_time,
    d.start_time + d.duration,
    d.id,
  );
  return nodes.filter((n) => !busy.has(n.id));
}

/**
 * Allocates a dispatch from its batteries' state now and sends the orders, in one transaction with
 * the mark that they were sent: a second run (another process, or after a restart) sends nothing.
 * An event already under way (the server was down at its start) is allocated over what is left of it.
 */
async function sendOrders(ctx: AppContext, id: number, now: number): Promise<boolean> {
  const d = await repo.findDispatch(ctx.db, null, id, repo.ENGINE_EVENTS);
  if (!d || d.orders_sent_at !== null || d.cancelled_at !== null) return false;
  const nodes = await candidates(ctx.db, d, now);
  const end = d.start_time + d.duration;
  const from = Math.max(d.start_time, now);
  const allocation = allocationFor(nodes, from, end - from, d.real_power_p, d.strategy as DispatchStrategy);
  const message = customerMessageOf(d);
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markOrdersSent(trx, 'dispatches', id, now))) return false;
    await repo.storeAllocation(trx, id, allocation);
    await sendCommands(trx, commandsOf(id, allocation), { created: now, organisationId: d.organisation_id });
    // The message goes to each allocated node's customer with the orders (none for a lockout).
    await orders.markNodesSent(trx, id, now, message !== null);
    return true;
  });
}

/**
 * During the event, once per 5 minutes: nodes of the allocation that stopped reporting are dropped
 * (their orders withdrawn) and the request, over what is left of the event, is allocated again among
 * the nodes still reporting, whose orders are replaced. Nodes that joined later are not added: their
 * customers got no message, and another dispatch may hold them.
 */
async function reallocate(ctx: AppContext, id: number, now: number, bucket: number): Promise<boolean> {
  const d = await repo.findDispatch(ctx.db, null, id, repo.ENGINE_EVENTS);
  if (!d || d.cancelled_at !== null) return false;
  const allocated = await orders.allocatedNodes(ctx.db, id);
  const ps = await eventPowerstation(ctx.db, d.powerstation_id);
  const reporting = new Map((ps ? await reportingBatteries(ctx.db, ps, now) : []).map((r) => [r.id, allocNode(r)]));
  const dropped = allocated.filter((n) => !reporting.has(n));
  const kept = allocated.filter((n) => reporting.has(n)).map((n) => reporting.get(n) as ReturnType<typeof allocNode>);
  const end = d.start_time + d.duration;
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markChecked(trx, 'dispatches', id, bucket)) || !dropped.length) return false;
    const source = commandSource(id);
    await cancelCommands(trx, source, now, dropped);
    await orders.dropNodes(trx, id, dropped, now);
    if (d.real_power_p === 0 || !kept.length) return true;
    const allocation = allocationFor(kept, now, end - now, d.real_power_p, d.strategy as DispatchStrategy);
    const keptIds = kept.map((k) => k.id);
    await cancelCommands(trx, source, now, keptIds);
    await sendCommands(trx, commandsOf(id, allocation), { organisationId: d.organisation_id });
    for (const a of allocation) {
      // The node's orders as they now stand: what it was given before now, then the new ones.
      const past = (await orders.nodeIntervals(trx, id, a.nodeId)).filter((iv) => iv.start < now).map((iv) => ({ ...iv, end: Math.min(iv.end, now) }));
      await orders.setNodeOrders(trx, id, a.nodeId, a.shareKw, [...past, ...a.intervals]);
    }
    return true;
  });
}
