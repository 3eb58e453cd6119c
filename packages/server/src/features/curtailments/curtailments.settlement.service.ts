import { CURTAILMENT } from '@vpp/shared/curtailments/messages';
import { epochToLocalDate, startOfPeriod } from '@vpp/shared/time';
import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineJob } from '../../platform/jobs.ts';
import { feedInRates, type SettledNodeDay } from '../billing/index.ts';
import { nodeFacts, queueSettlements, type SettlementKind, STEP_S, settledEnd, settleEvent } from '../events/index.ts';
import { limitTelemetryCovers } from './curtailments.limits.repo.ts';
import * as repo from './curtailments.repo.ts';
import { curtailmentSource } from './curtailments.service.ts';

// Settlement of a curtailment (issue 15): SETTLEMENT_DELAY_S after it ends (or is cancelled), once the
// fleet's telemetry covers its window, the solar its limits held back on each node (the rollups'
// curtailed energy over the 5-minute buckets the node held the limit in) is credited to the node's
// customer per local day at a fixed rate: the feed-in tariff of the plan the customer held with the
// curtailing organisation that day (the revenue the curtailment cost the customer), or the
// CURTAILMENT_CREDIT_RATE setting for a customer with none. Written once, with its grid credits.
// An import limit (component import, a network's IMPORT_CAPACITY_LIMIT) earns no credit: it is a
// network protection service that holds back no feed-in, so its settlement is written with 0 kWh and
// $0 and no grid credits at all (the customers' bills show nothing for it).

/** The line items' type: a fixed-rate credit (not 'Spot Price'). */
export const CURTAILMENT_CREDIT_TYPE = 'Curtailment';

/** What a curtailment's settlement writes, computed from telemetry and plans (nothing written yet). */
export interface CurtailmentSettlement {
  periodStart: number;
  periodEnd: number;
  curtailedKwh: number;
  /** AUD, unrounded, positive: the customers' credit. */
  credit: number;
  nodesLimited: number;
  nodesCurtailed: number;
  /** Per node and local day, in the grid credits' convention (kWh −curtailed, value −credit). */
  nodes: SettledNodeDay[];
}

/** The windows each node held the curtailment's limits in: its commands the device accepted, as they ran (ended early when dropped or cancelled). */
async function limitWindows(db: Database, id: number): Promise<Map<number, [number, number][]>> {
  const out = new Map<number, [number, number][]>();
  for (const r of await repo.acceptedWindows(db, curtailmentSource(id))) {
    const list = out.get(r.node_id) ?? [];
    list.push([r.start, r.end]);
    out.set(r.node_id, list);
  }
  return out;
}

/**
 * Computes a curtailment's settlement: per node, the curtailed energy of the 5-minute buckets of the
 * settled window that overlap the node's limits, by the node's local day, valued at its rate.
 */
export async function computeCurtailmentSettlement(
  ctx: AppContext,
  c: { id: number; organisation_id: number; start_time: number; duration: number; cancelled_at: number | null; component: string },
): Promise<CurtailmentSettlement> {
  const start = c.start_time;
  const end = settledEnd(c);
  const windows = await limitWindows(ctx.db, c.id);
  const ids = [...windows.keys()].sort((a, b) => a - b);
  // An import limit holds back no feed-in: no credit (see the top of this file).
  if (c.component === 'import')
    return { periodStart: start, periodEnd: end, curtailedKwh: 0, credit: 0, nodesLimited: ids.length, nodesCurtailed: 0, nodes: [] };
  const zones = new Map([...(await nodeFacts(ctx.db, ids))].map(([id, f]) => [id, f.timezone]));
  const perDay = new Map<string, { nodeId: number; dayStart: number; date: string; kwh: number }>();
  for (const b of await ctx.telemetry.curtailedEnergy(ids, start, end)) {
    const held = windows.get(b.nodeId)?.some(([from, to]) => from < b.ts + STEP_S && to > b.ts);
    if (!held) continue;
    const zone = zones.get(b.nodeId) ?? 'Australia/Sydney';
    const dayStart = startOfPeriod(b.ts, 'day', zone);
    const key = `${b.nodeId}:${dayStart}`;
    const row = perDay.get(key) ?? { nodeId: b.nodeId, dayStart, date: epochToLocalDate(dayStart, zone), kwh: 0 };
    row.kwh += b.kwh;
    perDay.set(key, row);
  }
  const days = [...perDay.values()];
  const rate = await feedInRates(ctx.db, c.organisation_id, days, ctx.config.CURTAILMENT_CREDIT_RATE);
  let kwh = 0;
  let credit = 0;
  const nodes: SettledNodeDay[] = days.map((d) => {
    const value = d.kwh * rate(d.nodeId, d.date);
    kwh += d.kwh;
    credit += value;
    return { nodeId: d.nodeId, dayStart: d.dayStart, kwh: -d.kwh, value: -value };
  });
  return {
    periodStart: start,
    periodEnd: end,
    curtailedKwh: kwh,
    credit,
    nodesLimited: ids.length,
    nodesCurtailed: new Set(days.map((d) => d.nodeId)).size,
    nodes,
  };
}

/**
 * Whether the fleet's telemetry covers a curtailment's settled window: every connected node given its
 * limits has a reading at or after `end` (see the dispatches' telemetryCovers).
 */
export const curtailmentTelemetryCovers = (db: Database, id: number, end: number) => limitTelemetryCovers(db, curtailmentSource(id), end);

/** The curtailment's stored settlement, or undefined before it is settled. */
export const findCurtailmentSettlement = repo.findCurtailmentSettlement;

/**
 * Settles a curtailment once it is due (the kernel's `settleEvent`: SETTLEMENT_DELAY_S after its end
 * or its cancel, and the fleet's telemetry covering its window), with its grid credits, once.
 * Answers whether this call wrote it.
 */
export function settleCurtailment(ctx: AppContext, id: number, now = nowS()): Promise<boolean> {
  return settleEvent(ctx, CURTAILMENT_SETTLEMENTS, id, now, async (c) => {
    const s = await computeCurtailmentSettlement(ctx, c);
    return {
      write: (trx) =>
        repo.insertSettlement(trx, {
          event_id: id,
          settled_at: now,
          period_start: s.periodStart,
          period_end: s.periodEnd,
          curtailed_kwh: s.curtailedKwh,
          credit: s.credit,
          nodes_limited: s.nodesLimited,
          nodes_curtailed: s.nodesCurtailed,
        }),
      // An import limit writes no grid credits (no feed-in lost): its settlement row says $0.
      credits:
        c.component === 'import'
          ? null
          : {
              kind: 'curtailment',
              type: CURTAILMENT_CREDIT_TYPE,
              startTime: s.periodStart,
              // In the grid credits' convention: what the event cost, minus the customers' credit.
              settledValue: -s.credit,
              nodes: s.nodes,
            },
    };
  });
}

/** Settles one curtailment; `at` is when it was found due (the run acts as at least then). */
export const settleCurtailmentJob = defineJob('curtailment-settle', z.object({ id: z.number().int(), at: z.number() }), async (ctx, payload) => {
  await settleCurtailment(ctx, payload.id, Math.max(payload.at, nowS()));
});

const CURTAILMENT_SETTLEMENTS: SettlementKind<NonNullable<Awaited<ReturnType<typeof repo.settlingCurtailment>>>> = {
  types: [CURTAILMENT],
  table: 'curtailment_settlements',
  job: settleCurtailmentJob,
  covers: curtailmentTelemetryCovers,
  load: repo.settlingCurtailment,
  crash: 'curtailment',
};

/** Queues the settlement of every curtailment that is due and not settled (the curtailment engine asks every minute). */
export const queueDueCurtailmentSettlements = (ctx: AppContext, now = nowS()) => queueSettlements(ctx, CURTAILMENT_SETTLEMENTS, now);
