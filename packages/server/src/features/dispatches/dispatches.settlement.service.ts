import { isNemRegion, type NemRegion } from '@vpp/shared/market/rules';
import { epochToLocalDate, startOfPeriod } from '@vpp/shared/time';
import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineJob } from '../../platform/jobs.ts';
import { feedInRates } from '../billing/index.ts';
import { type MeasuredSettlement, nodeFacts, pricesActual, queueSettlements, type SettlementKind, settledEnd, settleEvent } from '../events/index.ts';
import { settlementPrices } from '../market/index.ts';
import { STEP_S } from './dispatches.engine.ts';
import { type ExternalResponse, externalResponses } from './dispatches.external.service.ts';
import { type BaselineError, measureDispatch } from './dispatches.measurement.service.ts';
import { ENGINE_EVENTS, RERT_EVENT, type RertActivation, rertActivation } from './dispatches.repo.ts';
import * as repo from './dispatches.settlement.repo.ts';

// Settlement of a dispatch (issue 11 item 5): about an hour after it ends (SETTLEMENT_DELAY_S, so
// that late telemetry has arrived), each responding node's delivered energy in each 5-minute
// interval, measured as the response is, valued at that interval's 5-minute price of the node's
// region (the administered price in an administered price period: settlementPrices), written once, and only once the fleet's telemetry covers the window (telemetryCovers).

export { settledEnd };

interface NodeDay {
  nodeId: number;
  dayStart: number;
  /** The node's local date of dayStart (YYYY-MM-DD). */
  date: string;
  region: string | null;
  kwh: number;
  /** The node's baseline energy at the meter over the same intervals (kWh, positive imports). */
  baselineKwh: number;
  value: number | null;
  /** Energy discharged (kWh, positive) and its value at the settled prices (AUD, positive when earned). */
  dischargedKwh: number;
  dischargeValue: number;
  /** What charging earned where the price was negative (AUD, ≥ 0): the VPP was paid to take the energy. */
  chargeEarnings: number;
}

/** What a settlement writes, computed from telemetry and prices (nothing written yet). */
export interface Settlement {
  periodStart: number;
  periodEnd: number;
  cost: number;
  energyKwh: number;
  /** Priced energy charged and discharged (kWh, both positive); the unpriced (outside the NEM) apart, signed. */
  chargedKwh: number;
  dischargedKwh: number;
  unpricedKwh: number;
  buyPrice: number | null;
  sellPrice: number | null;
  nodesResponding: number;
  nodesComplete: number;
  coverage: number;
  /** The request's energy over the settled window, and how it splits (kWh, signed like the request): requested = delivered (energyKwh) + rejected + not delivered. */
  requestedKwh: number;
  /** The complete nodes' baseline and measured energy at their meters (positive imports): delivered = measured − baseline. */
  baselineKwh: number;
  measuredKwh: number;
  rejectedKwh: number;
  notDeliveredKwh: number;
  baselineError: BaselineError;
  nodes: (NodeDay & { complete: boolean })[];
}

/**
 * Computes a dispatch's settlement from its measurement (dispatches.measurement.service.ts): per accepting
 * node and interval, delivered kW = the meter's average power in the interval's 5-minute rollup less
 * the node's baseline; energy = kW × the seconds measured ÷ 3600, valued at price ($/MWh) ÷ 1000 per
 * kWh. Only nodes with a full rollup (300 s of readings) and a baseline for every interval count in
 * the totals: coverage is their share of the responding nodes. Nodes outside the NEM deliver energy
 * with no price.
 */
export async function computeSettlement(
  ctx: AppContext,
  e: { id: number; start_time: number; duration: number; cancelled_at: number | null; orders_sent_at: number | null; real_power_p: number },
  now: number,
): Promise<Settlement> {
  const start = e.start_time;
  const end = settledEnd(e);
  const m = await measureDispatch(ctx, e, end);
  const { buckets, seconds: counted } = m;
  const responding = m.nodes.filter((x) => x.answer === 'ACCEPTED');
  // The OpenADR VENs' resources enrolled as the organisation's nodes (not measured by the console itself)
  // settle on what their VEN reported: delivered kW per interval, complete when every interval is reported.
  const own = new Set(responding.map((x) => x.nodeId));
  const external = (await externalResponses(ctx, e.id, buckets)).filter(
    (x): x is ExternalResponse & { nodeId: number } => x.nodeId !== null && !own.has(x.nodeId),
  );
  const facts = await nodeFacts(ctx.db, [...responding.map((x) => x.nodeId), ...new Set(external.map((x) => x.nodeId))]);
  const prices = new Map<string, Float64Array>();
  for (const region of new Set([...facts.values()].map((f) => f.region))) {
    if (!isNemRegion(region) || !buckets.length) continue;
    const series = await settlementPrices(ctx, region as NemRegion, start, end, now);
    const a = new Float64Array(buckets.length).fill(Number.NaN);
    for (const p of series) a[(p.start - start) / STEP_S] = p.price;
    prices.set(region, a);
  }
  const days = new Map<string, number>();
  const dayOf = (ts: number, zone: string) => {
    const key = `${zone}:${ts}`;
    let d = days.get(key);
    if (d === undefined) {
      d = startOfPeriod(ts, 'day', zone);
      days.set(key, d);
    }
    return d;
  };
  const out: Settlement['nodes'] = [];
  let cost = 0;
  let charged = 0;
  let discharged = 0;
  let unpriced = 0;
  let buyValue = 0;
  let sellValue = 0;
  let complete = 0;
  const totals = { requested: 0, baseline: 0, measured: 0, rejected: 0, notDelivered: 0 };
  for (let k = 0; k < buckets.length; k++) {
    const iv = m.intervals[k];
    const h = counted[k] / 3600;
    totals.requested += iv.requestedKw * h;
    for (const v of Object.values(iv.rejectedKw)) totals.rejected += v * h;
  }
  const zero = new Float64Array(buckets.length);
  const reported = [...new Set(external.map((x) => x.nodeId))].map((nodeId) => {
    // A node's resources (of one VEN or several) add up; an interval none reported is missing.
    const kw = new Float64Array(buckets.length).fill(Number.NaN);
    for (const x of external.filter((y) => y.nodeId === nodeId))
      for (let k = 0; k < buckets.length; k++) if (!Number.isNaN(x.kw[k])) kw[k] = (Number.isNaN(kw[k]) ? 0 : kw[k]) + x.kw[k];
    return { nodeId, measured: kw, baseline: { kw: zero }, full: Array.from(kw, (v) => !Number.isNaN(v)), external: true };
  });
  for (const node of [...responding.map((x) => ({ ...x, external: false })), ...reported]) {
    const { nodeId } = node;
    const f = facts.get(nodeId);
    const rrp = f ? prices.get(f.region) : undefined;
    let full = true;
    for (let k = 0; k < buckets.length; k++) if (!node.full[k] || Number.isNaN(node.baseline.kw[k])) full = false;
    const perDay = new Map<number, NodeDay>();
    for (let k = 0; k < buckets.length; k++) {
      const meter = node.measured[k];
      const base = node.baseline.kw[k];
      if (!node.full[k] || Number.isNaN(base)) continue;
      const kwh = ((meter - base) * counted[k]) / 3600;
      const price = rrp?.[k];
      const value = price === undefined || Number.isNaN(price) ? null : (kwh * price) / 1000;
      const day = dayOf(buckets[k], f?.timezone ?? 'Australia/Sydney');
      const row = perDay.get(day) ?? {
        nodeId,
        dayStart: day,
        date: epochToLocalDate(day, f?.timezone ?? 'Australia/Sydney'),
        region: rrp ? (f?.region ?? null) : null,
        kwh: 0,
        baselineKwh: 0,
        value: rrp ? 0 : null,
        dischargedKwh: 0,
        dischargeValue: 0,
        chargeEarnings: 0,
      };
      row.kwh += kwh;
      row.baselineKwh += (base * counted[k]) / 3600;
      if (row.value !== null && value !== null) {
        row.value += value;
        if (kwh < 0) {
          row.dischargedKwh -= kwh;
          row.dischargeValue -= value;
        } else if (value < 0) row.chargeEarnings -= value;
      }
      perDay.set(day, row);
    }
    for (const row of perDay.values()) out.push({ ...row, complete: full });
    if (!full) continue;
    complete++;
    for (let k = 0; k < buckets.length; k++) {
      const h = counted[k] / 3600;
      // A VEN's report is its delivery; its meters' baseline and readings are not the console's to total.
      if (!node.external) {
        totals.baseline += node.baseline.kw[k] * h;
        totals.measured += node.measured[k] * h;
      }
      const kwh = (node.measured[k] - node.baseline.kw[k]) * h;
      const price = rrp?.[k];
      if (price === undefined || Number.isNaN(price)) {
        unpriced += kwh;
        continue;
      }
      cost += (kwh * price) / 1000;
      if (kwh > 0) {
        charged += kwh;
        buyValue += kwh * price;
      } else if (kwh < 0) {
        discharged -= kwh;
        sellValue -= kwh * price;
      }
    }
  }
  const energy = charged - discharged + unpriced;
  // What the accepting nodes were asked and did not give, as counted (incomplete nodes' orders included).
  totals.notDelivered = totals.requested - totals.rejected - energy;
  return {
    periodStart: start,
    periodEnd: end,
    cost,
    energyKwh: energy,
    chargedKwh: charged,
    dischargedKwh: discharged,
    unpricedKwh: unpriced,
    buyPrice: charged > 0 ? buyValue / charged : null,
    sellPrice: discharged > 0 ? sellValue / discharged : null,
    nodesResponding: responding.length + reported.length,
    nodesComplete: complete,
    coverage: responding.length ? complete / responding.length : 1,
    requestedKwh: totals.requested,
    baselineKwh: totals.baseline,
    measuredKwh: totals.measured,
    rejectedKwh: totals.rejected,
    notDeliveredKwh: totals.notDelivered,
    baselineError: m.baselineError,
    nodes: out,
  };
}

/**
 * Whether the fleet's telemetry covers a dispatch's settled window: every node of its allocation
 * that is connected (not offline) has a reading at or after `end`, so every reading of the window
 * has arrived (a device reports in order). Until then the settlement waits: telemetry that arrives
 * late (a backlog, the demo's backfill of history) would otherwise be settled as missing, once and
 * for good. A node that went offline is not waited for; its missing intervals count as incomplete.
 */
export const telemetryCovers = repo.telemetryCovers;

export { pricesActual };

/** The dispatch's stored settlement, or undefined before it is settled. */
export const findSettlement = repo.findSettlement;

/**
 * Settles a dispatch once it is due (the kernel's `settleEvent`: SETTLEMENT_DELAY_S after its end or
 * its cancel, its prices actual, and the fleet's telemetry covering its window: `telemetryCovers`),
 * from its measured settlement, once. Answers whether this call wrote it.
 */
export function settleDispatch(ctx: AppContext, id: number, now = nowS()): Promise<boolean> {
  return settleEvent(ctx, DISPATCH_SETTLEMENTS, id, now, async (e) => {
    const s = await computeSettlement(ctx, e, now);
    if (e.type === RERT_EVENT) return measured(e, s, rertCredits(s, await rertActivation(ctx.db, e.id)), now);
    const complete = s.nodes.filter((n) => n.complete);
    // The bill pays the plan's feed-in tariff on exported energy (a customer with no plan of this
    // retailer: none here): the grid credit is the spot value beyond it, and never a debit.
    const feedIn = await feedInRates(ctx.db, e.organisation_id, complete, 0);
    const credits = complete.map((n) => ({
      nodeId: n.nodeId,
      dayStart: n.dayStart,
      kwh: n.kwh,
      value: n.value,
      credit: Math.max(0, n.dischargeValue - n.dischargedKwh * feedIn(n.nodeId, n.date)) + n.chargeEarnings,
      sides: { spotValue: n.dischargeValue + n.chargeEarnings, feedIn: n.dischargedKwh * feedIn(n.nodeId, n.date) },
    }));
    return measured(e, s, { credits, rert: null }, now);
  });
}

/** A RERT dispatch's payments under its contract (AUD), as settled. */
export interface RertPayments {
  availability: number;
  preActivation: number;
  activation: number;
  usage: number;
  customerShare: number;
}

/**
 * A RERT dispatch settles under its reserve contract, never at spot (NER 3.20; issue 33 item 3):
 * availability = rate ($/MW per hour) × contracted MW × hours from pre-activation to the settled end;
 * pre-activation = rate ($/MWh) × contracted MW × hours from pre-activation to activation;
 * activation = rate ($/MWh) × contracted MW × hours from activation to the settled end;
 * usage = rate ($/MWh) × the MWh the complete nodes discharged against their baselines.
 * The VPP earns the total (its cost is −total); the customers are credited the contract's share of
 * it, node by node in proportion to the energy each discharged. Its intervals are under AEMO's
 * intervention: no spot value is paid for them (each node's `value` is its part of the contract
 * payment). Without a recorded contract it earns and credits nothing.
 */
export function rertCredits(s: Settlement, a: RertActivation | undefined): { credits: Credit[]; rert: RertPayments } {
  const complete = s.nodes.filter((n) => n.complete);
  const discharged = complete.reduce((sum, n) => sum + Math.max(0, -n.kwh), 0);
  const rert: RertPayments = { availability: 0, preActivation: 0, activation: 0, usage: 0, customerShare: a?.customer_share ?? 0 };
  if (a) {
    const hours = (from: number, to: number) => Math.max(0, to - from) / 3600;
    rert.availability = a.availability_rate * a.contract_mw * hours(a.pre_activated_at, s.periodEnd);
    rert.preActivation = a.pre_activation_rate * a.contract_mw * hours(a.pre_activated_at, a.activated_at);
    rert.activation = a.activation_rate * a.contract_mw * hours(a.activated_at, s.periodEnd);
    rert.usage = (a.usage_rate * discharged) / 1000;
  }
  const total = rert.availability + rert.preActivation + rert.activation + rert.usage;
  const credits = complete.map((n) => {
    const part = discharged > 0 ? Math.max(0, -n.kwh) / discharged : 0;
    return { nodeId: n.nodeId, dayStart: n.dayStart, kwh: n.kwh, value: -total * part, credit: total * part * rert.customerShare };
  });
  return { credits, rert };
}

interface Credit {
  nodeId: number;
  dayStart: number;
  kwh: number;
  value: number | null;
  credit: number;
  sides?: { spotValue: number; feedIn: number };
}

/** What a dispatch's settlement writes: its rows (the settlement and its nodes) and its customers' credits. */
function measured(e: { id: number; type: string }, s: Settlement, paid: { credits: Credit[]; rert: RertPayments | null }, now: number): MeasuredSettlement {
  const id = e.id;
  const { credits, rert } = paid;
  if (rert) {
    // Under the contract, never at spot: the VPP's cost is minus the contract payments, each node's value its part of them.
    s.cost = -(rert.availability + rert.preActivation + rert.activation + rert.usage);
    const byNode = new Map(credits.map((c) => [`${c.nodeId}:${c.dayStart}`, c.value]));
    for (const n of s.nodes) n.value = n.complete ? (byNode.get(`${n.nodeId}:${n.dayStart}`) ?? 0) : null;
  }
  const write = async (trx: Database) => {
    const written = await repo.insertSettlement(trx, {
      event_id: id,
      settled_at: now,
      period_start: s.periodStart,
      period_end: s.periodEnd,
      cost: s.cost,
      energy_kwh: s.energyKwh,
      charged_kwh: s.chargedKwh,
      discharged_kwh: s.dischargedKwh,
      unpriced_kwh: s.unpricedKwh,
      buy_price: s.buyPrice,
      sell_price: s.sellPrice,
      nodes_responding: s.nodesResponding,
      nodes_complete: s.nodesComplete,
      coverage: s.coverage,
      requested_kwh: s.requestedKwh,
      baseline_kwh: s.baselineKwh,
      measured_kwh: s.measuredKwh,
      rejected_kwh: s.rejectedKwh,
      not_delivered_kwh: s.notDeliveredKwh,
      baseline_error: s.baselineError.median,
      baseline_error_nodes: s.baselineError.nodes,
      rert_availability: rert?.availability ?? null,
      rert_pre_activation: rert?.preActivation ?? null,
      rert_activation: rert?.activation ?? null,
      rert_usage: rert?.usage ?? null,
      rert_customer_share: rert?.customerShare ?? null,
    });
    if (!written) return false;
    await repo.insertSettlementNodes(
      trx,
      s.nodes.map((n) => ({
        event_id: id,
        node_id: n.nodeId,
        day_start: n.dayStart,
        region: n.region,
        delivered_kwh: n.kwh,
        baseline_kwh: n.baselineKwh,
        value: n.value,
        complete: n.complete ? 1 : 0,
      })),
    );
    return true;
  };
  return {
    write,
    credits: {
      kind: e.type === RERT_EVENT ? 'rert' : 'dispatch',
      // Spec 3 §3.10 names 'Spot Price' and allows others: a RERT dispatch's credit is labelled as what it is.
      type: e.type === RERT_EVENT ? 'RERT' : 'Spot Price',
      startTime: s.periodStart,
      settledValue: s.cost,
      nodes: credits,
    },
  };
}

const SETTLE_KIND = 'dispatch-settle';

type DispatchSettling = NonNullable<Awaited<ReturnType<typeof repo.settlingDispatch>>>;

/** Settles one dispatch; `at` is when it was found due (the run acts as at least then). */
export const settleDispatchJob = defineJob(SETTLE_KIND, z.object({ id: z.number().int(), at: z.number() }), async (ctx, payload) => {
  await settleDispatch(ctx, payload.id, Math.max(payload.at, nowS()));
});

const DISPATCH_SETTLEMENTS: SettlementKind<DispatchSettling> = {
  types: ENGINE_EVENTS,
  table: 'dispatch_settlements',
  job: settleDispatchJob,
  covers: telemetryCovers,
  spotPriced: true,
  load: (db, id) => repo.settlingDispatch(db, id, ENGINE_EVENTS),
  crash: 'dispatch',
};

/** Queues the settlement of every dispatch and RERT dispatch that is due and not settled (the engine asks every minute). */
export { queueSettlements, type SettlementKind };

export const queueDueSettlements = (ctx: AppContext, now = nowS()) => queueSettlements(ctx, DISPATCH_SETTLEMENTS, now);
