import { createHash } from 'node:crypto';
import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { sendCommands } from '../../devices/devices.commands.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { chargeLeadS, outageCommands } from './outages.orders.ts';
import { dueOutages, findOutage, optOutNodes } from './outages.service.ts';

/** Nodes act on events only within this long before their start (spec 3 §9). */
export const OUTAGE_ORDER_LEAD_S = 86_400;
/** Share of the simulated customers who opt their home out of an outage's preparation (seeded per node and outage). */
export const SIMULATED_OPT_OUT_SHARE = 0.04;

/**
 * Whether the demo's simulated customer of a node opts out of an outage: fixed per node and outage,
 * drawn from a hash of the two (the console's own draw, not the simulator's: until devices carry
 * their customers' answers back, the outage engine stands in for them).
 */
export const simulatedOptOut = (nodeId: number, outageId: number) =>
  createHash('sha256').update(`outage-opt-out|${nodeId}|${outageId}`).digest().readUInt32BE(0) / 2 ** 32 < SIMULATED_OPT_OUT_SHARE;

/**
 * The outage engine, run every minute by the worker: once an outage is within 24 hours of its start,
 * the simulated customers answer (a seeded few percent opt out), and every other node of it gets its
 * orders: charge to full from early enough before the start (its power limit filling it from
 * empty), then hold it as backup through the window. One transaction with the mark that they were
 * sent: a second run sends nothing.
 */
export async function runOutageEngine(ctx: AppContext, now = nowS()): Promise<number[]> {
  const sent: number[] = [];
  for (const { id } of await dueOutages(ctx.db, now, OUTAGE_ORDER_LEAD_S)) {
    const o = await findOutage(ctx.db, null, id);
    if (!o) continue;
    const done = await ctx.db.transaction().execute(async (trx) => {
      const mark = await trx
        .updateTable('grid_outages')
        .set({ orders_sent_at: now })
        .where('event_id', '=', id)
        .where('orders_sent_at', 'is', null)
        .executeTakeFirst();
      if (Number(mark.numUpdatedRows) !== 1) return false;
      const nodes = await trx
        .selectFrom('outage_nodes as o')
        .innerJoin('nodes', 'nodes.id', 'o.node_id')
        .select(['o.node_id', 'o.opted_out_at', 'nodes.battery_usable_kwh', 'nodes.battery_kw'])
        .where('o.event_id', '=', id)
        .execute();
      const simulated = nodes.filter((n) => n.opted_out_at === null && simulatedOptOut(n.node_id, id)).map((n) => n.node_id);
      await optOutNodes(trx, id, simulated, 'SIMULATED', now);
      const out = new Set(simulated);
      const end = o.start_time + o.duration;
      const ordered = nodes.filter((n) => n.opted_out_at === null && !out.has(n.node_id));
      for (const n of ordered) {
        const prepareFrom = Math.max(now, o.start_time - chargeLeadS(n));
        await trx
          .updateTable('outage_nodes')
          .set({ prepare_from: prepareFrom, orders_sent_at: now })
          .where('event_id', '=', id)
          .where('node_id', '=', n.node_id)
          .execute();
      }
      await sendCommands(
        trx,
        ordered.flatMap((n) => outageCommands(id, n.node_id, Math.max(now, o.start_time - chargeLeadS(n)), o.start_time, end)),
        { organisationId: o.organisation_id },
      );
      return true;
    });
    if (done) sent.push(id);
  }
  return sent;
}

export const outageEngineJob = defineJob('outage-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runOutageEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: orders go out within a minute of entering the 24-hour window. */
export const OUTAGE_ENGINE_RECURRING: Recurring = { kind: outageEngineJob.kind, periodS: 60 };
