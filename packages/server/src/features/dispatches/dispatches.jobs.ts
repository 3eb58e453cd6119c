import type { DispatchStrategy } from '@vpp/shared';
import { sql } from 'kysely';
import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, type NewCommand, sendCommands } from '../../fleet/control.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { STEP_S } from './dispatches.engine.ts';
import { allocationFor, allocNode, commandSource, customerMessageOf } from './dispatches.orders.ts';
import * as repo from './dispatches.repo.ts';
import { queueDueSettlements } from './dispatches.settlement.ts';

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
  const due = await ctx.db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select(['events.id', 'd.orders_sent_at', 'd.checked_at', 'events.start_time'])
    .where('events.type', 'in', repo.ENGINE_EVENTS)
    .where('events.cancelled_at', 'is', null)
    .where('events.start_time', '<=', now + ORDER_LEAD_S)
    .where(sql<number>`events.start_time + events.duration`, '>', now)
    .orderBy('events.start_time')
    .execute();
  const bucket = now - (now % STEP_S);
  for (const row of due) {
    if (row.orders_sent_at === null) {
      if (await sendOrders(ctx, row.id, now)) sent.push(row.id);
    } else if (Number(row.start_time) <= now && (row.checked_at === null || Number(row.checked_at) < bucket)) {
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
  const ps = await db.selectFrom('powerstations').selectAll().where('id', '=', d.powerstation_id).executeTakeFirst();
  if (!ps) return [];
  const nodes = (await repo.reportingBatteries(db, ps, now)).map(allocNode);
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
    const mark = await trx
      .updateTable('dispatches')
      .set({ orders_sent_at: now })
      .where('event_id', '=', id)
      .where('orders_sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1) return false;
    await repo.storeAllocation(trx, id, allocation);
    await sendCommands(trx, commandsOf(id, allocation), { created: now, organisationId: d.organisation_id });
    // The message goes to each allocated node's customer with the orders (none for a lockout).
    await trx
      .updateTable('dispatch_nodes')
      .set({ orders_sent_at: now, message_sent_at: message ? now : null })
      .where('event_id', '=', id)
      .execute();
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
  // A node whose customer opted out is neither dropped nor given orders again.
  const allocated = await ctx.db
    .selectFrom('dispatch_nodes')
    .select('node_id')
    .where('event_id', '=', id)
    .where('dropped_at', 'is', null)
    .where('opted_out_at', 'is', null)
    .execute();
  const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', d.powerstation_id).executeTakeFirst();
  const reporting = new Map((ps ? await repo.reportingBatteries(ctx.db, ps, now) : []).map((r) => [r.id, allocNode(r)]));
  const dropped = allocated.filter((a) => !reporting.has(a.node_id)).map((a) => a.node_id);
  const kept = allocated.filter((a) => reporting.has(a.node_id)).map((a) => reporting.get(a.node_id) as ReturnType<typeof allocNode>);
  const end = d.start_time + d.duration;
  return ctx.db.transaction().execute(async (trx) => {
    const mark = await trx
      .updateTable('dispatches')
      .set({ checked_at: bucket })
      .where('event_id', '=', id)
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', bucket)]))
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1 || !dropped.length) return false;
    const source = commandSource(id);
    await cancelCommands(trx, source, now, dropped);
    for (let i = 0; i < dropped.length; i += 1000)
      await trx
        .updateTable('dispatch_nodes')
        .set({ dropped_at: now })
        .where('event_id', '=', id)
        .where('node_id', 'in', dropped.slice(i, i + 1000))
        .execute();
    if (d.real_power_p === 0 || !kept.length) return true;
    const allocation = allocationFor(kept, now, end - now, d.real_power_p, d.strategy as DispatchStrategy);
    const keptIds = kept.map((k) => k.id);
    await cancelCommands(trx, source, now, keptIds);
    await sendCommands(trx, commandsOf(id, allocation), { organisationId: d.organisation_id });
    for (const a of allocation) {
      // The node's orders as they now stand: what it was given before now, then the new ones.
      const before = await trx.selectFrom('dispatch_nodes').select('intervals').where('event_id', '=', id).where('node_id', '=', a.nodeId).executeTakeFirst();
      const past = (JSON.parse(before?.intervals ?? '[]') as repo.DispatchNodeInput['intervals'])
        .filter((iv) => iv.start < now)
        .map((iv) => ({ ...iv, end: Math.min(iv.end, now) }));
      await trx
        .updateTable('dispatch_nodes')
        .set({ share_kw: a.shareKw, intervals: JSON.stringify([...past, ...a.intervals]) })
        .where('event_id', '=', id)
        .where('node_id', '=', a.nodeId)
        .execute();
    }
    return true;
  });
}

export const dispatchEngineJob = defineJob('dispatch-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runDispatchEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: orders go out within a minute of entering the 24-hour window, and drop-outs are caught every 5 minutes. */
export const DISPATCH_ENGINE_RECURRING: Recurring = { kind: dispatchEngineJob.kind, periodS: 60 };
