import { createHash } from 'node:crypto';
import { GRID_OUTAGE } from '@vpp/shared/outages/messages';
import { nowS } from '../../db/database.ts';
import { sendCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { dueEvents, markOrdersSent } from '../events/index.ts';
import { chargeLeadS, outageCommands } from './outages.orders.ts';
import * as repo from './outages.repo.ts';
import { optOutNodes } from './outages.service.ts';

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
  for (const { id } of await dueEvents(ctx.db, { types: [GRID_OUTAGE], table: 'grid_outages', now, leadS: OUTAGE_ORDER_LEAD_S, unsent: true })) {
    const o = await repo.findOutage(ctx.db, null, id);
    if (!o) continue;
    const done = await ctx.db.transaction().execute(async (trx) => {
      if (!(await markOrdersSent(trx, 'grid_outages', id, now))) return false;
      const nodes = await repo.engineNodes(trx, id);
      const simulated = nodes.filter((n) => n.opted_out_at === null && simulatedOptOut(n.node_id, id)).map((n) => n.node_id);
      await optOutNodes(trx, id, simulated, 'SIMULATED', now);
      const out = new Set(simulated);
      const end = o.start_time + o.duration;
      const ordered = nodes.filter((n) => n.opted_out_at === null && !out.has(n.node_id));
      for (const n of ordered) {
        const prepareFrom = Math.max(now, o.start_time - chargeLeadS(n));
        await repo.markNodeSent(trx, id, n.node_id, prepareFrom, now);
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
