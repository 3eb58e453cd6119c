import { epochToLocalDate, startOfPeriod } from '@vpp/shared';
import type { Database } from '../../db/database.ts';
import { commandResponses } from '../../devices/devices.commands.ts';
import type { AppContext } from '../../platform/context.ts';
import { nodeFacts } from '../events/index.ts';
import { RESERVE_SHARE, STEP_S } from './dispatches.engine.ts';
import { commandSource } from './dispatches.orders.ts';
import type { DispatchRow } from './dispatches.repo.ts';
import { dispatchOrders, otherDispatchWindows } from './dispatches.settlement.repo.ts';

// Measurement and verification of a dispatch (issue 33 item 1): what each node delivered is the
// change of its meter's power against a stated baseline, what the home would have drawn from the grid
// had there been no dispatch.
//
// The baseline is built in the manner of AEMO's wholesale demand response mechanism (WDRM) baselines
// (AEMO, "Wholesale Demand Response Guidelines" and "Baseline Methodology Register", listed at
// https://aemo.com.au/initiatives/trials-and-initiatives/wholesale-demand-response-mechanism/wdr-key-documents-and-links):
// a "CER"-style average of the same time on recent comparable days, with an additive same-day
// adjustment from the hours just before the event. Its settings here are the console's own (the
// register's are per methodology; these are not AEMO-certified values):
//
// 1. Comparable days: the node's local days of the same kind as the event's (Monday to Friday, or
//    Saturday and Sunday; public holidays are not told apart), the most recent BASELINE.days of them
//    within BASELINE.lookbackDays before the event's day, less the days the node took part in another
//    dispatch or RERT dispatch (its own history while disturbed says nothing of its habits).
// 2. Unadjusted baseline: per 5-minute interval, the mean of the node's meter power (kW, positive
//    imports) at the same time from local midnight on those of the days that have that bucket.
// 3. Same-day adjustment (additive): the mean of (measured − unadjusted) over the adjustment window,
//    [start − 3 h, start − 1 h): the home's own state that day (weather, occupancy), before any order
//    reaches it. Added to every interval of the event.
// 4. A node with fewer than BASELINE.minDays comparable days with data: its baseline is flat, its
//    mean meter power over the hour before the start (same-day only). With neither, no baseline: the
//    node is not measured (its intervals are not delivered, reason offline).

/** Each ordered node's answer to the dispatch's orders: ACCEPTED when it accepted any of them. */
export async function nodeAnswers(db: Database, id: number): Promise<Map<number, string>> {
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

export const BASELINE = { days: 10, lookbackDays: 45, minDays: 3, adjustFromS: 3 * 3600, adjustToS: 3600, flatS: 3600 } as const;

export type BaselineMethod = 'comparable-days' | 'same-day' | 'none';

export interface NodeBaseline {
  /** kW at the meter per interval of [start, end), NaN where unknown. */
  kw: Float64Array;
  method: BaselineMethod;
  /** Comparable days with data used (0 for the flat same-day baseline). */
  days: number;
  /** The additive same-day adjustment, kW. */
  adjustmentKw: number;
}

const isWeekend = (dayStart: number, zone: string) => {
  const wd = new Date(`${epochToLocalDate(dayStart, zone)}T12:00:00Z`).getUTCDay();
  return wd === 0 || wd === 6;
};

/** The local midnights of the comparable days of the day of `start` in `zone`, most recent first. */
export function comparableDays(start: number, zone: string): number[] {
  const d0 = startOfPeriod(start, 'day', zone);
  const weekend = isWeekend(d0, zone);
  const out: number[] = [];
  for (let j = 1; j <= BASELINE.lookbackDays && out.length < BASELINE.days + 5; j++) {
    const dj = startOfPeriod(d0 - j * 86_400 + 43_200, 'day', zone);
    if (isWeekend(dj, zone) === weekend) out.push(dj);
  }
  return out;
}

/** Mean power (kW) per bucket of [from, from + n × 300) per node, NaN where no reading. */
async function meterAverages(ctx: AppContext, ids: readonly number[], from: number, n: number): Promise<Map<number, Float64Array>> {
  const out = new Map<number, Float64Array>();
  for (const id of ids) out.set(id, new Float64Array(n).fill(Number.NaN));
  if (!ids.length || n <= 0) return out;
  await ctx.telemetry.buckets(ids, ['meter_p'], from, from + n * STEP_S, (id, ts, cov, v) => {
    const k = (ts - from) / STEP_S;
    if (cov > 0 && !Number.isNaN(v[0]) && k >= 0 && k < n) (out.get(id) as Float64Array)[k] = v[0] / cov;
  });
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * Each node's meter baseline over the intervals of [start, end) (`eventId`'s own orders do not
 * exclude a day). Nodes as { id, timezone }.
 */
export async function meterBaselines(
  ctx: AppContext,
  nodes: readonly { id: number; timezone: string }[],
  start: number,
  end: number,
  eventId: number,
): Promise<Map<number, NodeBaseline>> {
  const n = Math.max(0, Math.ceil((end - start) / STEP_S));
  const pre = BASELINE.adjustFromS / STEP_S;
  const adjN = (BASELINE.adjustFromS - BASELINE.adjustToS) / STEP_S;
  const out = new Map<number, NodeBaseline>();
  const ids = nodes.map((x) => x.id);
  // The days each node was in another dispatch (local midnights are looked up per node below).
  const busy = new Map<number, { s: number; e: number }[]>();
  const since = start - (BASELINE.lookbackDays + 2) * 86_400;
  for (const r of await otherDispatchWindows(ctx.db, ids, eventId, since, start)) {
    const s = r.start_time;
    const e = Math.min(s + r.duration, r.cancelled_at ?? Number.POSITIVE_INFINITY);
    const list = busy.get(r.node_id) ?? [];
    list.push({ s, e });
    busy.set(r.node_id, list);
  }
  const byZone = new Map<string, number[]>();
  for (const x of nodes) byZone.set(x.timezone, [...(byZone.get(x.timezone) ?? []), x.id]);
  // The same day's readings: the adjustment window and the hour before the start.
  const sameDay = await meterAverages(ctx, ids, start - BASELINE.adjustFromS, pre);
  for (const [zone, zoneIds] of byZone) {
    const d0 = startOfPeriod(start, 'day', zone);
    const offset = start - d0;
    const days = comparableDays(start, zone);
    // Per day: the adjustment window and the event's intervals at the same time from local midnight.
    const history: { day: number; avg: Map<number, Float64Array> }[] = [];
    for (const day of days) history.push({ day, avg: await meterAverages(ctx, zoneIds, day + offset - BASELINE.adjustFromS, pre + n) });
    for (const id of zoneIds) {
      const busyDays = busy.get(id) ?? [];
      const used = history
        .filter((h) => !busyDays.some((b) => b.s < h.day + 86_400 && b.e > h.day))
        .map((h) => h.avg.get(id) as Float64Array)
        .filter((a) => a.subarray(pre).some((v) => !Number.isNaN(v)))
        .slice(0, BASELINE.days);
      const actual = sameDay.get(id) as Float64Array;
      const kw = new Float64Array(n).fill(Number.NaN);
      if (used.length >= BASELINE.minDays) {
        const unadjusted = (m: number) => mean(used.map((a) => a[m]).filter((v) => !Number.isNaN(v)));
        const diffs: number[] = [];
        for (let m = 0; m < adjN; m++) {
          const u = unadjusted(m);
          if (!Number.isNaN(u) && !Number.isNaN(actual[m])) diffs.push(actual[m] - u);
        }
        const adjustmentKw = diffs.length ? mean(diffs) : 0;
        for (let k = 0; k < n; k++) kw[k] = unadjusted(pre + k) + adjustmentKw;
        out.set(id, { kw, method: 'comparable-days', days: used.length, adjustmentKw });
        continue;
      }
      const flat = mean([...actual.subarray(pre - BASELINE.flatS / STEP_S)].filter((v) => !Number.isNaN(v)));
      if (!Number.isNaN(flat)) kw.fill(flat);
      out.set(id, { kw, method: Number.isNaN(flat) ? 'none' : 'same-day', days: 0, adjustmentKw: 0 });
    }
  }
  return out;
}

/** Why ordered power was not delivered. */
export const REJECTED_REASONS = ['optedOut', 'offline', 'notAllocated'] as const;
export const NOT_DELIVERED_REASONS = ['offline', 'stateOfCharge', 'inverterLimit', 'household'] as const;
export type RejectedReason = (typeof REJECTED_REASONS)[number];
export type NotDeliveredReason = (typeof NOT_DELIVERED_REASONS)[number];

/** One interval of the VPP (kW, signed like the request): requested = delivered + rejected + not delivered. */
export interface MeasuredInterval {
  ts: number;
  /** Seconds of the interval measured (less than 300 in the bucket a cancel fell in). */
  seconds: number;
  requestedKw: number;
  /** Sums over the accepting nodes measured in the interval. */
  baselineKw: number;
  measuredKw: number;
  deliveredKw: number;
  rejectedKw: Record<RejectedReason, number>;
  notDeliveredKw: Record<NotDeliveredReason, number>;
  /** Accepting nodes measured in the interval (a meter reading and a baseline). */
  nodesMeasured: number;
}

export interface NodeMeasurement {
  nodeId: number;
  answer: string;
  baseline: NodeBaseline;
  /** Meter kW per interval, NaN where missing; `full` where the bucket has 300 s of readings. */
  measured: Float64Array;
  full: Uint8Array;
  /** Ordered battery kW per interval. */
  ordered: Float64Array;
}

export interface DispatchMeasurement {
  start: number;
  end: number;
  buckets: number[];
  seconds: number[];
  nodes: NodeMeasurement[];
  intervals: MeasuredInterval[];
  /** Baseline accuracy on the undisturbed homes of the dispatch (those that did not take its orders). */
  baselineError: BaselineError;
}

export interface BaselineError {
  /** Homes compared (a baseline and readings in at least one interval). */
  nodes: number;
  /** Median over those homes of Σ|baseline − measured| ÷ Σ|measured| over the intervals (a fraction); null with none. */
  median: number | null;
}

/** The measured window of a dispatch: its start to its end, or to its cancel, and to `now` while it runs. */
export const measuredEnd = (e: { start_time: number; duration: number; cancelled_at: number | null }, now = Number.POSITIVE_INFINITY) =>
  Math.max(e.start_time, Math.min(e.start_time + e.duration, e.cancelled_at ?? Number.POSITIVE_INFINITY, now));

/** Σ|b − a| ÷ Σ|a| of one home over the intervals where both are known (null when none, or the meter read zero: Σ|a| ≤ 1e-6 kW). */
export function weightedError(baseline: ArrayLike<number>, measured: ArrayLike<number>): number | null {
  let err = 0;
  let tot = 0;
  for (let k = 0; k < measured.length; k++) {
    if (Number.isNaN(baseline[k]) || Number.isNaN(measured[k])) continue;
    err += Math.abs(baseline[k] - measured[k]);
    tot += Math.abs(measured[k]);
  }
  // A meter that read zero (to float noise) has no relative error: 1e-18 kW would read as 10^17 %.
  return tot > 1e-6 ? err / tot : null;
}

export function medianOf(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Measures a dispatch over [start, end) (the settled window, or up to now while it runs) node by
 * node and interval by interval against each node's meter baseline, and explains every kW of the
 * request: delivered (measured − baseline, accepting nodes), rejected (orders not taken: opted out,
 * never answered because offline, or the part of the request no battery had room for) and not
 * delivered (orders taken and not seen at the meter: no readings, the battery at its state-of-charge
 * limit or its power limit, or the home's own load and battery use against its baseline).
 */
export async function measureDispatch(
  ctx: AppContext,
  d: Pick<DispatchRow, 'id' | 'start_time' | 'duration' | 'cancelled_at' | 'real_power_p' | 'orders_sent_at'>,
  end: number,
): Promise<DispatchMeasurement> {
  const start = d.start_time;
  const buckets: number[] = [];
  for (let ts = start; ts < end; ts += STEP_S) buckets.push(ts);
  const seconds = buckets.map((ts) => Math.min(STEP_S, end - ts));
  const n = buckets.length;
  const orders = d.orders_sent_at === null ? [] : await dispatchOrders(ctx.db, d.id);
  const answers = d.orders_sent_at === null ? new Map<number, string>() : await nodeAnswers(ctx.db, d.id);
  const ids = orders.map((o) => o.node_id);
  const facts = await nodeFacts(ctx.db, ids);
  const baselines = await meterBaselines(
    ctx,
    ids.map((id) => ({ id, timezone: facts.get(id)?.timezone ?? 'Australia/Sydney' })),
    start,
    start + n * STEP_S,
    d.id,
  );
  const measured = new Map<number, { meter: Float64Array; full: Uint8Array; battery: Float64Array; soc: Float64Array }>();
  for (const id of ids)
    measured.set(id, {
      meter: new Float64Array(n).fill(Number.NaN),
      full: new Uint8Array(n),
      battery: new Float64Array(n).fill(Number.NaN),
      soc: new Float64Array(n).fill(Number.NaN),
    });
  if (n)
    for (let i = 0; i < ids.length; i += 1000)
      await ctx.telemetry.buckets(ids.slice(i, i + 1000), ['meter_p', 'battery_p', 'soc'], start, start + n * STEP_S, (id, ts, cov, v) => {
        const m = measured.get(id);
        const k = (ts - start) / STEP_S;
        if (!m || cov <= 0 || k < 0 || k >= n) return;
        if (!Number.isNaN(v[0])) m.meter[k] = v[0] / cov;
        if (!Number.isNaN(v[1])) m.battery[k] = v[1] / cov;
        if (!Number.isNaN(v[2])) m.soc[k] = v[2] / cov;
        m.full[k] = cov >= STEP_S && !Number.isNaN(v[0]) ? 1 : 0;
      });
  const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const intervals: MeasuredInterval[] = buckets.map((ts, k) => ({
    ts,
    seconds: seconds[k],
    requestedKw: d.real_power_p,
    baselineKw: 0,
    measuredKw: 0,
    deliveredKw: 0,
    rejectedKw: zero(REJECTED_REASONS),
    notDeliveredKw: zero(NOT_DELIVERED_REASONS),
    nodesMeasured: 0,
  }));
  const direction = Math.sign(d.real_power_p);
  const nodes: NodeMeasurement[] = [];
  const errors: number[] = [];
  const orderedSum = new Float64Array(n);
  for (const o of orders) {
    const ivs: { start: number; end: number; kw: number }[] = JSON.parse(o.intervals);
    const ordered = Float64Array.from(buckets, (ts) => ivs.find((iv) => iv.start <= ts && ts < iv.end)?.kw ?? 0);
    const answer = answers.get(o.node_id) ?? 'PENDING';
    const b = baselines.get(o.node_id) as NodeBaseline;
    const m = measured.get(o.node_id) as NonNullable<ReturnType<typeof measured.get>>;
    const f = facts.get(o.node_id);
    nodes.push({ nodeId: o.node_id, answer, baseline: b, measured: m.meter, full: m.full, ordered });
    if (answer !== 'ACCEPTED') {
      const e = weightedError(b.kw, m.meter);
      if (e !== null) errors.push(e);
    }
    for (let k = 0; k < n; k++) {
      const kw = ordered[k];
      orderedSum[k] += kw;
      const iv = intervals[k];
      if (answer !== 'ACCEPTED') {
        iv.rejectedKw[answer === 'OPTED_OUT' ? 'optedOut' : 'offline'] += kw;
        continue;
      }
      if (Number.isNaN(m.meter[k]) || Number.isNaN(b.kw[k])) {
        iv.notDeliveredKw.offline += kw;
        continue;
      }
      const delivered = m.meter[k] - b.kw[k];
      iv.nodesMeasured++;
      iv.baselineKw += b.kw[k];
      iv.measuredKw += m.meter[k];
      iv.deliveredKw += delivered;
      const short = kw - delivered;
      const soc = m.soc[k];
      const battery = m.battery[k];
      const reserve = RESERVE_SHARE * 100;
      let reason: NotDeliveredReason = 'household';
      if (direction !== 0 && short * direction > 0) {
        if (!Number.isNaN(soc) && (direction < 0 ? soc <= reserve + 1 : soc >= 99)) reason = 'stateOfCharge';
        else if (f && !Number.isNaN(battery) && Math.abs(battery) >= f.battery_kw * 0.98 && Math.abs(kw) >= f.battery_kw * 0.98) reason = 'inverterLimit';
      }
      iv.notDeliveredKw[reason] += short;
    }
  }
  for (let k = 0; k < n; k++) intervals[k].rejectedKw.notAllocated = d.real_power_p - orderedSum[k];
  return { start, end, buckets, seconds, nodes, intervals, baselineError: { nodes: errors.length, median: medianOf(errors) } };
}
