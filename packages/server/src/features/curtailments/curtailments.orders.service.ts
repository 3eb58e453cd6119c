import { CURTAILMENT } from '@vpp/shared/curtailments/messages';
import { type Database, nowS } from '../../db/database.ts';
import { endCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ORDER_LEAD_S } from '../dispatches/index.ts';
import { dueEvents, eventPowerstation, markChecked, markOrdersSent, STEP_S } from '../events/index.ts';
import type { PowerstationRow } from '../vpps/index.ts';
import {
  type CurtailableNode,
  heldShares,
  type LimitPlan,
  reportingBatteryHomes,
  reportingCurtailable,
  resplit,
  type Shares,
  STANDING_END,
  sendLimits,
} from './curtailments.limits.service.ts';
import * as repo from './curtailments.repo.ts';
import { type CurtailmentRow, curtailmentSource, findCurtailment, setpointSource } from './curtailments.service.ts';
import { activeSetpoints, markSetpointChecked, markSetpointSent, orphanSetpoints, type SetpointRow, sentSetpoints } from './curtailments.setpoints.repo.ts';
import { queueDueCurtailmentSettlements } from './curtailments.settlement.service.ts';

/**
 * A curtailment's per-node limits as orders over its window: net (grid) or gross (solar) export
 * limits, or an import limit (import: realPowerP is the VPP's maximum net import, 0 or more).
 */
function curtailmentPlan(c: CurtailmentRow): LimitPlan {
  const kw = -c.real_power_p + 0;
  return {
    source: curtailmentSource(c.id),
    organisationId: c.organisation_id,
    netKw: c.component === 'grid' ? kw : null,
    grossKw: c.component === 'solar' ? kw : null,
    importKw: c.component === 'import' ? Math.max(0, c.real_power_p) + 0 : null,
    end: c.start_time + c.duration,
    standing: false,
    rampS: 0,
  };
}

/** The node history's line for a node's limit. */
function describe(c: CurtailmentRow, shares: Shares, nodeId: number): string {
  const s = shares.get(nodeId);
  if (c.component === 'import') return `Import limit: import from the grid held to at most ${s?.import ?? 0} kW by curtailment ${c.id}.`;
  return c.component === 'grid'
    ? `Export at the meter limited to ${s?.net ?? 0} kW by curtailment ${c.id}.`
    : `Solar output limited to ${s?.gross ?? 0} kW by curtailment ${c.id}.`;
}

/** The nodes reporting now that a curtailment's limits go to: its homes with a battery for an import limit, else its curtailable nodes. */
async function reportingNodesOf(ctx: AppContext, c: CurtailmentRow, ps: PowerstationRow | undefined | null, now: number): Promise<CurtailableNode[]> {
  if (!ps) return [];
  return c.component === 'import' ? reportingBatteryHomes(ctx.db, ps, now) : reportingCurtailable(ctx.db, ps, now);
}

async function logNodes(db: Database, c: CurtailmentRow, nodeIds: readonly number[], shares: Shares, from: number) {
  if (!nodeIds.length) return;
  const end = c.start_time + c.duration;
  await repo.logNodeEvents(db, nodeIds, { ts: from, description: (id) => describe(c, shares, id), duration: end - from });
}

/**
 * Sends a curtailment's per-node limits to the VPP's curtailable nodes reporting now (the VPP limit
 * split in proportion to their capacity), with their node history lines, in one transaction with
 * the mark that they were sent: a second run (another process, or after a restart) sends nothing.
 */
async function sendCurtailment(ctx: AppContext, id: number, now: number): Promise<boolean> {
  const c = await findCurtailment(ctx.db, null, id);
  if (!c || c.orders_sent_at !== null || c.cancelled_at !== null || c.powerstation_id === null) return false;
  const nodes = await reportingNodesOf(ctx, c, await eventPowerstation(ctx.db, c.powerstation_id), now);
  const from = Math.max(c.start_time, now);
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markOrdersSent(trx, 'curtailments', id, now))) return false;
    const shares = await sendLimits(trx, curtailmentPlan(c), nodes, from);
    await logNodes(trx, c, [...shares.keys()], shares, from);
    return true;
  });
}

/** During the window, once per 5 minutes: the limit re-split among the nodes reporting (see `resplit`). */
async function recheckCurtailment(ctx: AppContext, id: number, now: number, bucket: number): Promise<boolean> {
  const c = await findCurtailment(ctx.db, null, id);
  if (!c || c.cancelled_at !== null || c.powerstation_id === null) return false;
  const nodes = await reportingNodesOf(ctx, c, await eventPowerstation(ctx.db, c.powerstation_id), now);
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markChecked(trx, 'curtailments', id, bucket))) return false;
    const { added, dropped, shares } = await resplit(trx, curtailmentPlan(c), nodes, now);
    await logNodes(trx, c, added, shares, now);
    return added.length > 0 || dropped.length > 0;
  });
}

const setpointPlan = (s: SetpointRow, rampFrom?: LimitPlan['rampFrom']): LimitPlan => ({
  source: setpointSource(s.id),
  organisationId: s.organisation_id,
  netKw: -Number(s.grid_limit) + 0,
  grossKw: -Number(s.solar_limit) + 0,
  importKw: null,
  end: STANDING_END,
  standing: true,
  rampS: Number(s.ramp_duration),
  rampFrom,
});

/**
 * A VPP's new ACTIVE setpoint: the previous setpoints' standing limits end now and the new ones
 * start, each node ramping from its previous limit (or from no limit) over the ramp duration.
 */
async function sendSetpoint(ctx: AppContext, s: SetpointRow, now: number): Promise<boolean> {
  const ps = await eventPowerstation(ctx.db, s.powerstation_id);
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  const previous = await sentSetpoints(ctx.db, s.powerstation_id, s.id);
  const rampFrom = previous.length ? await heldShares(ctx.db, setpointSource(previous[0].id)) : undefined;
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markSetpointSent(trx, s.id, now, now - (now % STEP_S)))) return false;
    for (const p of previous) await endCommands(trx, setpointSource(p.id), now);
    await sendLimits(trx, setpointPlan(s, rampFrom), nodes, now);
    return true;
  });
}

async function recheckSetpoint(ctx: AppContext, s: SetpointRow, now: number, bucket: number): Promise<boolean> {
  const ps = await eventPowerstation(ctx.db, s.powerstation_id);
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await markSetpointChecked(trx, s.id, bucket))) return false;
    const { added, dropped } = await resplit(trx, setpointPlan(s), nodes, now);
    return added.length > 0 || dropped.length > 0;
  });
}

/**
 * The curtailment engine, run every minute by the worker (a recurring job, so a restart resumes it):
 * each curtailment's per-node limits go out once it is within 24 hours of its start, and during its
 * window, once per 5 minutes, the VPP limit is split again among the nodes reporting. Each VPP's
 * ACTIVE default setpoint is sent when it is new (replacing the previous one) and re-split the same way.
 * Curtailments that ended SETTLEMENT_DELAY_S ago get their settlement job.
 */
export async function runCurtailmentEngine(
  ctx: AppContext,
  now = nowS(),
): Promise<{ sent: number[]; resplit: number[]; setpointsSent: number[]; setpointsResplit: number[]; settling: number[] }> {
  const out = { sent: [] as number[], resplit: [] as number[], setpointsSent: [] as number[], setpointsResplit: [] as number[], settling: [] as number[] };
  const bucket = now - (now % STEP_S);
  const due = await dueEvents(ctx.db, { types: [CURTAILMENT], table: 'curtailments', now, leadS: ORDER_LEAD_S });
  for (const row of due) {
    if (row.orders_sent_at === null) {
      if (await sendCurtailment(ctx, row.id, now)) out.sent.push(row.id);
    } else if (Number(row.start_time) <= now && (row.checked_at == null || Number(row.checked_at) < bucket)) {
      if (await recheckCurtailment(ctx, row.id, now, bucket)) out.resplit.push(row.id);
    }
  }
  // A deleted VPP's setpoints: their standing limits end (once; later runs find nothing in force).
  const orphans = await orphanSetpoints(ctx.db);
  for (const o of orphans) await endCommands(ctx.db, setpointSource(o.id), now);
  for (const s of await activeSetpoints(ctx.db)) {
    if (s.orders_sent_at === null) {
      if (await sendSetpoint(ctx, s, now)) out.setpointsSent.push(s.id);
    } else if (s.checked_at === null || Number(s.checked_at) < bucket) {
      if (await recheckSetpoint(ctx, s, now, bucket)) out.setpointsResplit.push(s.id);
    }
  }
  out.settling = await queueDueCurtailmentSettlements(ctx, now);
  return out;
}
