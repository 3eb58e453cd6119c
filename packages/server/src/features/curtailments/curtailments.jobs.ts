import { CURTAILMENT } from '@vpp/shared';
import { sql } from 'kysely';
import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';
import { endCommands } from '../../fleet/control.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { ORDER_LEAD_S, STEP_S } from '../dispatches/index.ts';
import { heldShares, type LimitPlan, reportingCurtailable, resplit, type Shares, STANDING_END, sendLimits } from './curtailments.limits.service.ts';
import { type CurtailmentRow, curtailmentSource, findCurtailment, setpointSource } from './curtailments.service.ts';
import { queueDueCurtailmentSettlements } from './curtailments.settlement.service.ts';

/** A curtailment's per-node limits as orders: net (grid) or gross (solar), over its window. */
function curtailmentPlan(c: CurtailmentRow): LimitPlan {
  const kw = -c.real_power_p + 0;
  return {
    source: curtailmentSource(c.id),
    organisationId: c.organisation_id,
    netKw: c.component === 'grid' ? kw : null,
    grossKw: c.component === 'solar' ? kw : null,
    end: c.start_time + c.duration,
    standing: false,
    rampS: 0,
  };
}

/** The node history's line for a node's limit. */
function describe(c: CurtailmentRow, shares: Shares, nodeId: number): string {
  const s = shares.get(nodeId);
  return c.component === 'grid'
    ? `Export at the meter limited to ${s?.net ?? 0} kW by curtailment ${c.id}.`
    : `Solar output limited to ${s?.gross ?? 0} kW by curtailment ${c.id}.`;
}

async function logNodes(db: Database, c: CurtailmentRow, nodeIds: readonly number[], shares: Shares, from: number) {
  if (!nodeIds.length) return;
  const end = c.start_time + c.duration;
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .insertInto('node_events')
      .values(
        nodeIds.slice(i, i + 1000).map((id) => ({
          node_id: id,
          ts: from,
          event_type: CURTAILMENT,
          description: describe(c, shares, id),
          duration: end - from,
        })),
      )
      .execute();
}

/**
 * Sends a curtailment's per-node limits to the VPP's curtailable nodes reporting now (the VPP limit
 * split in proportion to their capacity), with their node history lines, in one transaction with
 * the mark that they were sent: a second run (another process, or after a restart) sends nothing.
 */
async function sendCurtailment(ctx: AppContext, id: number, now: number): Promise<boolean> {
  const c = await findCurtailment(ctx.db, null, id);
  if (!c || c.orders_sent_at !== null || c.cancelled_at !== null || c.powerstation_id === null) return false;
  const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', c.powerstation_id).executeTakeFirst();
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  const from = Math.max(c.start_time, now);
  return ctx.db.transaction().execute(async (trx) => {
    const mark = await trx
      .updateTable('curtailments')
      .set({ orders_sent_at: now })
      .where('event_id', '=', id)
      .where('orders_sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1) return false;
    const shares = await sendLimits(trx, curtailmentPlan(c), nodes, from);
    await logNodes(trx, c, [...shares.keys()], shares, from);
    return true;
  });
}

/** During the window, once per 5 minutes: the limit re-split among the nodes reporting (see `resplit`). */
async function recheckCurtailment(ctx: AppContext, id: number, now: number, bucket: number): Promise<boolean> {
  const c = await findCurtailment(ctx.db, null, id);
  if (!c || c.cancelled_at !== null || c.powerstation_id === null) return false;
  const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', c.powerstation_id).executeTakeFirst();
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  return ctx.db.transaction().execute(async (trx) => {
    const mark = await trx
      .updateTable('curtailments')
      .set({ checked_at: bucket })
      .where('event_id', '=', id)
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', bucket)]))
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1) return false;
    const { added, dropped, shares } = await resplit(trx, curtailmentPlan(c), nodes, now);
    await logNodes(trx, c, added, shares, now);
    return added.length > 0 || dropped.length > 0;
  });
}

/** The newest setpoint of each VPP (by creation time, then id): the ACTIVE ones. */
async function activeSetpoints(db: Database) {
  return db
    .selectFrom('curtailment_setpoints as s')
    .innerJoin('powerstations as ps', 'ps.id', 's.powerstation_id')
    .selectAll('s')
    .select('ps.organisation_id')
    .where('s.removed_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('curtailment_setpoints as n')
            .select('n.id')
            .whereRef('n.powerstation_id', '=', 's.powerstation_id')
            .where((w) =>
              w.or([w('n.created_at', '>', w.ref('s.created_at')), w.and([w('n.created_at', '=', w.ref('s.created_at')), w('n.id', '>', w.ref('s.id'))])]),
            ),
        ),
      ),
    )
    .orderBy('s.id')
    .execute();
}

type SetpointRow = Awaited<ReturnType<typeof activeSetpoints>>[number];

const setpointPlan = (s: SetpointRow, rampFrom?: LimitPlan['rampFrom']): LimitPlan => ({
  source: setpointSource(s.id),
  organisationId: s.organisation_id,
  netKw: -Number(s.grid_limit) + 0,
  grossKw: -Number(s.solar_limit) + 0,
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
  const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', s.powerstation_id).executeTakeFirst();
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  const previous = await ctx.db
    .selectFrom('curtailment_setpoints')
    .select('id')
    .where('powerstation_id', '=', s.powerstation_id)
    .where('id', '!=', s.id)
    .where('orders_sent_at', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const rampFrom = previous.length ? await heldShares(ctx.db, setpointSource(previous[0].id)) : undefined;
  return ctx.db.transaction().execute(async (trx) => {
    const mark = await trx
      .updateTable('curtailment_setpoints')
      .set({ orders_sent_at: now, checked_at: now - (now % STEP_S) })
      .where('id', '=', s.id)
      .where('orders_sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1) return false;
    for (const p of previous) await endCommands(trx, setpointSource(p.id), now);
    await sendLimits(trx, setpointPlan(s, rampFrom), nodes, now);
    return true;
  });
}

async function recheckSetpoint(ctx: AppContext, s: SetpointRow, now: number, bucket: number): Promise<boolean> {
  const ps = await ctx.db.selectFrom('powerstations').selectAll().where('id', '=', s.powerstation_id).executeTakeFirst();
  const nodes = ps ? await reportingCurtailable(ctx.db, ps, now) : [];
  return ctx.db.transaction().execute(async (trx) => {
    const mark = await trx
      .updateTable('curtailment_setpoints')
      .set({ checked_at: bucket })
      .where('id', '=', s.id)
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', bucket)]))
      .executeTakeFirst();
    if (Number(mark.numUpdatedRows) !== 1) return false;
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
  const due = await ctx.db
    .selectFrom('events')
    .innerJoin('curtailments as c', 'c.event_id', 'events.id')
    .select(['events.id', 'events.start_time', 'c.orders_sent_at', 'c.checked_at'])
    .where('events.type', '=', CURTAILMENT)
    .where('events.cancelled_at', 'is', null)
    .where('events.start_time', '<=', now + ORDER_LEAD_S)
    .where(sql<number>`events.start_time + events.duration`, '>', now)
    .orderBy('events.start_time')
    .execute();
  for (const row of due) {
    if (row.orders_sent_at === null) {
      if (await sendCurtailment(ctx, row.id, now)) out.sent.push(row.id);
    } else if (Number(row.start_time) <= now && (row.checked_at === null || Number(row.checked_at) < bucket)) {
      if (await recheckCurtailment(ctx, row.id, now, bucket)) out.resplit.push(row.id);
    }
  }
  // A deleted VPP's setpoints: their standing limits end (once; later runs find nothing in force).
  const orphans = await ctx.db
    .selectFrom('curtailment_setpoints')
    .select('id')
    .where('powerstation_id', 'is', null)
    .where('orders_sent_at', 'is not', null)
    .execute();
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

export const curtailmentEngineJob = defineJob('curtailment-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runCurtailmentEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: limits go out within a minute of entering the 24-hour window, and re-splits happen every 5 minutes. */
export const CURTAILMENT_ENGINE_RECURRING: Recurring = { kind: curtailmentEngineJob.kind, periodS: 60 };
