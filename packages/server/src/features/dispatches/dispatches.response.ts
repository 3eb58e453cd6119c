import type { Database } from '../../db/database.ts';
import { commandResponses } from '../../fleet/control.ts';
import type { AppContext } from '../../platform/context.ts';
import { STEP_S } from './dispatches.engine.ts';
import { commandSource } from './dispatches.orders.ts';
import type { DispatchRow } from './dispatches.repo.ts';

/** What the nodes delivered in one 5-minute bucket (kW signed like the request, kWh). */
export interface ResponsePoint {
  realPowerP: number;
  rejectedRealPowerP: number;
  deliveredKwh: number;
}

export interface MeasuredResponse {
  series: Map<number, ResponsePoint>;
  total: { realPowerP: number; rejectedRealPowerP: number; deliveredKwh: number; deploymentsResponded: number };
  /** The share of responding nodes with a rollup in every measured bucket (1 when none responded). */
  coverage: number;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/** Each ordered node's answer to the dispatch's orders: ACCEPTED when it accepted any of them. */
async function nodeAnswers(db: Database, id: number): Promise<Map<number, string>> {
  const answers = new Map<number, string>();
  for (const r of await commandResponses(db, commandSource(id))) {
    // An order withdrawn after its device answered (a cancel, or a re-allocation replacing it) had been accepted.
    const status = r.status === 'CANCELLED' && r.responded_at !== null ? 'ACCEPTED' : r.status;
    if (status === 'ACCEPTED' || !answers.has(r.node_id)) answers.set(r.node_id, status);
  }
  return answers;
}

/** The nodes that responded to a dispatch (accepted its orders), in id order. */
export async function respondingNodes(db: Database, id: number): Promise<number[]> {
  return [...(await nodeAnswers(db, id))]
    .filter(([, a]) => a === 'ACCEPTED')
    .map(([n]) => n)
    .sort((a, b) => a - b);
}

/**
 * The response measured from telemetry (issue 11 item 4). Per 5-minute bucket of the event that has
 * a rollup: delivered realPowerP is, over the nodes that accepted their orders, the battery's average
 * power minus its baseline, the battery's average power in the 5 minutes before the start (measured,
 * so it survives restarts and needs no forecast; a node without that bucket counts from 0).
 * rejectedRealPowerP is what was ordered and not given: the whole order of a node that opted out or
 * never received it, and the shortfall of one that gave less than ordered (its battery empty or
 * full). deliveredKwh is Σ kW × 5/60 (× the part of the bucket before a cancel). The total's powers are the latest measured bucket's; its energy
 * is the sum so far.
 */
export async function measuredResponse(ctx: AppContext, d: DispatchRow): Promise<MeasuredResponse> {
  const empty: MeasuredResponse = { series: new Map(), total: { realPowerP: 0, rejectedRealPowerP: 0, deliveredKwh: 0, deploymentsResponded: 0 }, coverage: 1 };
  if (d.orders_sent_at === null) return empty;
  const start = d.start_time;
  // Buckets without rollups yet (still to come, or still filling with nothing stored) are not measured.
  const end = Math.min(d.start_time + d.duration, d.cancelled_at ?? Number.POSITIVE_INFINITY);
  const orders = await ctx.db.selectFrom('dispatch_nodes').select(['node_id', 'intervals']).where('event_id', '=', d.id).execute();
  const answers = await nodeAnswers(ctx.db, d.id);
  const ordered = new Map<number, { start: number; end: number; kw: number }[]>();
  for (const o of orders) ordered.set(o.node_id, JSON.parse(o.intervals));
  const nodeIds = [...ordered.keys()];
  const power = new Map<number, Map<number, number>>();
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await ctx.telemetry.historyRows(nodeIds.slice(i, i + 1000), ['battery_p'], start - STEP_S, end);
    for (const r of rows) {
      if (r.battery_p === null) continue;
      const m = power.get(r.node_id) ?? new Map<number, number>();
      m.set(r.ts, r.battery_p / r.cov);
      power.set(r.node_id, m);
    }
  }
  const series = new Map<number, ResponsePoint>();
  const incomplete = new Set<number>();
  const direction = Math.sign(d.real_power_p);
  for (let ts = start; ts < end; ts += STEP_S) {
    let delivered = 0;
    let rejected = 0;
    let measured = false;
    for (const [nodeId, intervals] of ordered) {
      const kw = intervals.find((iv) => iv.start <= ts && ts < iv.end)?.kw ?? 0;
      const answer = answers.get(nodeId);
      const p = power.get(nodeId)?.get(ts);
      if (answer !== 'ACCEPTED') {
        rejected += kw;
        continue;
      }
      if (p === undefined) {
        incomplete.add(nodeId);
        rejected += kw;
        continue;
      }
      measured = true;
      delivered += p - (power.get(nodeId)?.get(start - STEP_S) ?? 0);
      // Less than ordered in the request's direction is a shortfall.
      if (direction !== 0 && (kw - p) * direction > 0) rejected += kw - p;
    }
    // A cancel inside a bucket ends the measurement there: the bucket counts for its part before the cancel.
    const counted = Math.min(STEP_S, end - ts);
    if (measured) series.set(ts, { realPowerP: round3(delivered), rejectedRealPowerP: round3(rejected), deliveredKwh: round3((delivered * counted) / 3600) });
  }
  const last = [...series.values()].at(-1);
  let deliveredKwh = 0;
  for (const p of series.values()) deliveredKwh += p.deliveredKwh;
  const responded = [...answers.values()].filter((a) => a === 'ACCEPTED').length;
  return {
    series,
    coverage: responded ? Math.round(((responded - incomplete.size) / responded) * 1000) / 1000 : 1,
    total: {
      realPowerP: last?.realPowerP ?? 0,
      rejectedRealPowerP: last?.rejectedRealPowerP ?? 0,
      deliveredKwh: round3(deliveredKwh),
      deploymentsResponded: responded,
    },
  };
}
