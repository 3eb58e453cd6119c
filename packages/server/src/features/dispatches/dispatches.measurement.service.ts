import { epochToLocalDate, startOfPeriod } from '@vpp/shared/time';
import type { Database } from '../../db/database.ts';
import { commandResponses } from '../../devices/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import type { HistoryColumn } from '../../telemetry/index.ts';
import { nodeFacts } from '../events/index.ts';
import { RESERVE_SHARE, STEP_S } from './dispatches.engine.ts';
import { commandSource } from './dispatches.orders.ts';
import type { DispatchRow } from './dispatches.repo.ts';
import { acceptedOrdersBetween, dispatchOrders, otherDispatchWindows } from './dispatches.settlement.repo.ts';

// Measurement and verification of a dispatch (issue 33 item 1): what each node delivered is the
// change of its meter's power against a stated baseline, what the meter would have read had there
// been no dispatch.
//
// 1. The metered counterfactual (`counterfactual`), for every node whose inverter reports its
//    household load (house_p) and the solar available to it (sga_p) through the event. A battery
//    order changes neither: the load is the household's and the available solar is the sun's. What
//    it changes is the battery, so the baseline replaces the battery's measured power by what the
//    battery does on its own, self-consumption: it charges from the solar surplus and covers the
//    load, within its power limit and its usable energy, from its stored energy at the start (the
//    bucket before the start, carried to its end by the battery's power then), down to the lowest
//    level the node's battery self-consumed to in the COUNTERFACTUAL.floorDays days before the start
//    outside every event's orders (the household's backup reserve, learnt from its own history: a
//    dispatch may take a battery below it, and an islanded home in a grid outage to empty). Per
//    5-minute interval: baseline = load + battery on its own − available solar. A home with no
//    battery: load − available solar. It uses the readings the console already settles on (the
//    device's own meter, load and solar), rather than estimating the home's load from other days as
//    AEMO's wholesale demand response (WDRM) baselines do for a whole NMI: those cannot follow the
//    day's sun or a battery's state, and a residential meter with solar and a battery swings around
//    zero (the WDRM-style baseline below missed undisturbed homes by 29.6 % per home and 22.9 % for
//    the homes together in `npm run bench:forecast`; United Energy's RERT tests with AEMO found the
//    default WDR-style baseline unsuitable against high-frequency metering too, ARENA knowledge bank,
//    "United Energy Demand Response Project Performance Report, Milestone 2").
// 2. Otherwise, in the manner of AEMO's WDRM baselines (AEMO, "Wholesale Demand Response
//    Guidelines" and "Baseline Methodology Register", listed at
//    https://aemo.com.au/initiatives/trials-and-initiatives/wholesale-demand-response-mechanism/wdr-key-documents-and-links):
//    an average of the same time on recent comparable days, with an additive same-day adjustment
//    from the hours just before the event. Its settings here are the console's own (the register's
//    are per methodology; these are not AEMO-certified values):
//    a. Comparable days: the node's local days of the same kind as the event's (Monday to Friday, or
//       Saturday and Sunday; public holidays are not told apart), the most recent BASELINE.days of
//       them within BASELINE.lookbackDays before the event's day, less the days the node took part
//       in another dispatch or RERT dispatch (its own history while disturbed says nothing of its habits).
//    b. Unadjusted baseline: per 5-minute interval, the mean of the node's meter power (kW, positive
//       imports) at the same time from local midnight on those of the days that have that bucket.
//    c. Same-day adjustment (additive): the mean of (measured − unadjusted) over the adjustment
//       window, [start − 3 h, start − 1 h). Added to every interval of the event.
//    d. A node with fewer than BASELINE.minDays comparable days with data: its baseline is flat, its
//       mean meter power over the hour before the start (same-day only). With neither, no baseline:
//       the node is not measured (its intervals are not delivered, reason offline).

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

/** The metered counterfactual's settings: days of history its self-consumption floor is learnt from. */
export const COUNTERFACTUAL = { floorDays: 3 } as const;

export type BaselineMethod = 'counterfactual' | 'comparable-days' | 'same-day' | 'none';

/** A node as its baseline needs it: its local clock and its battery (power limit kW, usable kWh; 0 for none). */
export interface BaselineNode {
  id: number;
  timezone: string;
  battery_kw: number;
  battery_usable_kwh: number;
}

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
 * The metered counterfactual (method 1 above) of `nodes` over the `n` intervals from `start`: each
 * node whose inverter reported its load and available solar in the first interval (and, with a
 * battery, its stored energy in the hour before the start). NaN in an interval without both readings.
 */
async function counterfactuals(ctx: AppContext, nodes: readonly BaselineNode[], start: number, n: number): Promise<Map<number, NodeBaseline>> {
  const out = new Map<number, NodeBaseline>();
  if (!n || !nodes.length) return out;
  const from = start - COUNTERFACTUAL.floorDays * 86_400;
  // The windows in which an event's order held each node (a dispatch, a RERT dispatch, an outage, a
  // curtailment; a standing default limit leaves the battery alone): not its own behaviour.
  const busy = new Map<number, { s: number; e: number }[]>();
  for (const r of await acceptedOrdersBetween(
    ctx.db,
    nodes.map((x) => x.id),
    from,
    start,
  )) {
    if ((JSON.parse(r.params) as { standing?: boolean }).standing === true) continue;
    const list = busy.get(r.node_id) ?? [];
    list.push({ s: Number(r.start_ts), e: Number(r.end_ts) });
    busy.set(r.node_id, list);
  }
  const seen = new Map(
    nodes.map((x) => [
      x.id,
      {
        house: new Float64Array(n).fill(Number.NaN),
        solar: new Float64Array(n).fill(Number.NaN),
        /** The last bucket before the start with a stored energy: its start, average kWh and battery kW. */
        last: null as { ts: number; kwh: number; kw: number } | null,
        floor: Number.POSITIVE_INFINITY,
      },
    ]),
  );
  // Three reads, each of the columns it needs (a history read decodes each column it is given):
  // the days before for the floor, the hour before the start for the charge then, and the event.
  const reads: [number, number, HistoryColumn[]][] = [
    [from, start - BASELINE.flatS, ['remaining']],
    [start - BASELINE.flatS, start, ['remaining', 'battery_p']],
    [start, start + n * STEP_S, ['house_p', 'sga_p']],
  ];
  for (const [readFrom, readTo, cols] of reads)
    for (let i = 0; i < nodes.length; i += 1000)
      await ctx.telemetry.buckets(
        nodes.slice(i, i + 1000).map((x) => x.id),
        cols,
        readFrom,
        readTo,
        (id, ts, cov, v) => {
          const m = seen.get(id);
          if (!m || !(cov > 0)) return;
          if (ts >= start) {
            const k = (ts - start) / STEP_S;
            if (!Number.isNaN(v[0])) m.house[k] = v[0] / cov;
            if (!Number.isNaN(v[1])) m.solar[k] = v[1] / cov;
            return;
          }
          if (Number.isNaN(v[0])) return;
          const kwh = v[0] / cov;
          if (cols.length > 1) m.last = { ts, kwh, kw: Number.isNaN(v[1]) ? 0 : v[1] / cov };
          // The battery's own floor: the lowest it went on its own, outside every event's orders.
          if (!(busy.get(id) ?? []).some((b) => b.s < ts + STEP_S && b.e > ts)) m.floor = Math.min(m.floor, kwh);
        },
      );
  const e = BATTERY_ONE_WAY_EFFICIENCY;
  const hours = STEP_S / 3600;
  for (const x of nodes) {
    const m = seen.get(x.id);
    if (!m || Number.isNaN(m.house[0]) || Number.isNaN(m.solar[0])) continue;
    const battery = x.battery_usable_kwh > 0 && x.battery_kw > 0;
    if (battery && (m.last === null || m.last.ts < start - BASELINE.flatS)) continue;
    // The bucket's average stands at its middle: carried to the start at the battery's power then.
    let soc = 0;
    if (m.last) {
      const h = (start - (m.last.ts + STEP_S / 2)) / 3600;
      soc = Math.min(x.battery_usable_kwh, Math.max(0, m.last.kwh + (m.last.kw > 0 ? m.last.kw * e : m.last.kw / e) * h));
    }
    const floor = Math.min(soc, Number.isFinite(m.floor) ? m.floor : 0);
    const kw = new Float64Array(n).fill(Number.NaN);
    for (let k = 0; k < n; k++) {
      const house = m.house[k];
      const solar = m.solar[k];
      if (Number.isNaN(house) || Number.isNaN(solar)) continue;
      let b = 0;
      if (battery) {
        const maxCharge = Math.min(x.battery_kw, Math.max(0, (x.battery_usable_kwh - soc) / hours / e));
        const maxDischarge = Math.min(x.battery_kw, Math.max(0, ((soc - floor) * e) / hours));
        b = Math.max(-maxDischarge, Math.min(maxCharge, solar - house));
        soc = Math.min(x.battery_usable_kwh, Math.max(0, soc + (b > 0 ? b * e : b / e) * hours));
      }
      kw[k] = house + b - solar;
    }
    out.set(x.id, { kw, method: 'counterfactual', days: 0, adjustmentKw: 0 });
  }
  return out;
}

/**
 * Each node's meter baseline over the intervals of [start, end): the metered counterfactual where
 * the node reports its load and solar, otherwise comparable days with a same-day adjustment (or the
 * flat hour before). `eventId`'s own orders do not exclude a day.
 */
export async function meterBaselines(
  ctx: AppContext,
  nodes: readonly BaselineNode[],
  start: number,
  end: number,
  eventId: number,
): Promise<Map<number, NodeBaseline>> {
  const n = Math.max(0, Math.ceil((end - start) / STEP_S));
  const pre = BASELINE.adjustFromS / STEP_S;
  const adjN = (BASELINE.adjustFromS - BASELINE.adjustToS) / STEP_S;
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
  const out = await counterfactuals(ctx, nodes, start, n);
  const rest = nodes.filter((x) => !out.has(x.id));
  const byZone = new Map<string, number[]>();
  for (const x of rest) byZone.set(x.timezone, [...(byZone.get(x.timezone) ?? []), x.id]);
  // The same day's readings: the adjustment window and the hour before the start.
  const sameDay = await meterAverages(
    ctx,
    rest.map((x) => x.id),
    start - BASELINE.adjustFromS,
    pre,
  );
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
    ids.map((id) => ({ id, timezone: 'Australia/Sydney', battery_kw: 0, battery_usable_kwh: 0, ...facts.get(id) })),
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
    // A customer who opted out in the app (issue 34 item 12) rejects every interval from then; before the start, the whole order.
    const optedOutAt = o.opted_out_at === null ? Number.POSITIVE_INFINITY : Number(o.opted_out_at);
    const answer = optedOutAt <= start ? 'OPTED_OUT' : (answers.get(o.node_id) ?? 'PENDING');
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
      if (answer !== 'ACCEPTED' || buckets[k] >= optedOutAt) {
        iv.rejectedKw[answer === 'OPTED_OUT' || buckets[k] >= optedOutAt ? 'optedOut' : 'offline'] += kw;
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
