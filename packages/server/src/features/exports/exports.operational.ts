import { type ExportMetric, endOfPeriod, exportMetricOption, localMidnights, type NodeMetric } from '@vpp/shared';
import { stringify } from 'csv-stringify/sync';
import type { MetricColumn } from '../../fleet/metrics.ts';
import { METRIC_TO_COLUMN } from '../../fleet/metrics.ts';
import { bucketTimes, roundValue, submeterMeans } from '../../fleet/series.ts';
import { DayCache } from '../../fleet/telemetry/read.ts';
import type { TelemetryStore } from '../../fleet/telemetry.ts';
import { CSV_OPTIONS } from '../../platform/csv.ts';
import type { FileWriter } from '../../platform/downloads.ts';

// The operational export: one CSV per metric, a row per interval and a column per node (or phase, or
// submeter), or one summed column for a whole VPP. Values come from the telemetry's one read path
// (fleet/telemetry/read.ts, fleet/series.ts), rounded as the node data API rounds them.

/** The node data API's metrics an export metric reads; with Split by Phase the phased ones read A, B and C. */
export const EXPORT_NODE_METRICS: Record<Exclude<ExportMetric, 'submeter_power' | 'submeter_power_reactive'>, { whole: NodeMetric; phases?: NodeMetric[] }> = {
  meter_power: { whole: 'meterPower', phases: ['meterPowerA', 'meterPowerB', 'meterPowerC'] },
  meter_voltage: { whole: 'meterVoltage', phases: ['meterVoltageA', 'meterVoltageB', 'meterVoltageC'] },
  meter_power_reactive: { whole: 'meterReactivePower' },
  meter_frequency: { whole: 'meterFrequency' },
  solar_power: { whole: 'solarPower' },
  meter_sga_power: { whole: 'meterSGA' },
  battery_power: { whole: 'batteryPower' },
  inverter_power_reactive: { whole: 'solarReactivePower' },
  remaining_charge: { whole: 'remainingCharge' },
  meter_current: { whole: 'meterCurrent' },
};
/** The submeter field each submeter metric reads. */
const SUBMETER_FIELD = { submeter_power: 'p', submeter_power_reactive: 'q' } as const;

export interface ExportNode {
  id: number;
  nmi: string;
  timezone: string;
}
export interface ExportSubmeter {
  id: number;
  nodeId: number;
  name: string;
}

export interface OperationalPlan {
  nodes: readonly ExportNode[];
  submeters: readonly ExportSubmeter[];
  metrics: readonly ExportMetric[];
  start: number;
  end: number;
  interval: number;
  /** The time zone of the timestamp column. */
  zone: string;
  splitPhases: boolean;
  /** The name of the VPP whose one summed column is written (Aggregate by VPP); null: a column per node. */
  aggregate: string | null;
  /** Node-intervals read per page (EXPORT_PAGE_CELLS): the memory a page holds. */
  pageCells?: number;
}

/** The part of a metric's file a column reads: a node's column, or a submeter's field. */
type Source = { kind: 'node'; nodeIndex: number; col: MetricColumn } | { kind: 'sub'; subIndex: number; field: 'p' | 'q' };

interface MetricFile {
  metric: ExportMetric;
  header: string[];
  sources: Source[];
  /** Column of each source in the file (all 0 when summed). */
  width: number;
  hasData: boolean;
}

const nodeLabel = (n: ExportNode) => `${n.nmi} (node ${n.id})`;

/** The files' layouts: header and, per column, what it reads. */
export function layoutOf(plan: OperationalPlan): MetricFile[] {
  return plan.metrics.map((metric) => {
    const sources: Source[] = [];
    const header: string[] = [];
    if (metric === 'submeter_power' || metric === 'submeter_power_reactive') {
      const byNode = new Map(plan.nodes.map((n) => [n.id, n]));
      plan.submeters.forEach((s, subIndex) => {
        sources.push({ kind: 'sub', subIndex, field: SUBMETER_FIELD[metric] });
        const node = byNode.get(s.nodeId) as ExportNode;
        header.push(`${nodeLabel(node)} ${s.name}`);
      });
    } else {
      const m = EXPORT_NODE_METRICS[metric];
      const split = plan.splitPhases && m.phases;
      plan.nodes.forEach((n, nodeIndex) => {
        if (split)
          for (const [i, p] of (m.phases as NodeMetric[]).entries()) {
            sources.push({ kind: 'node', nodeIndex, col: METRIC_TO_COLUMN[p] });
            header.push(`${nodeLabel(n)} phase ${'ABC'[i]}`);
          }
        else {
          sources.push({ kind: 'node', nodeIndex, col: METRIC_TO_COLUMN[m.whole] });
          header.push(nodeLabel(n));
        }
      });
    }
    const label = exportMetricOption(metric)?.label ?? metric;
    const summed = plan.aggregate !== null;
    return {
      metric,
      header: ['timestamp', 'ts', ...(summed ? [`${plan.aggregate} ${label} (sum)`] : header)],
      sources,
      width: summed ? 1 : sources.length,
      hasData: false,
    };
  });
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local time of a row as ISO 8601 with the zone's offset (2026-11-01T00:00:00+11:00). */
export function localIso(ts: number, zone: string): string {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-AU', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ts * 1000)).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** Cells read at once by default: a page of time covers about this many node-intervals. */
export const PAGE_CELLS = 200_000;
/** Nodes (or submeters) per query at most: a bounded IN list on both databases. */
export const QUERY_NODES = 1000;
/**
 * Rows one query reads at most: SQLite answers a query in one go on the event loop, so a query of
 * 100,000 rows would hold every other request for a good part of a second.
 */
export const QUERY_ROWS = 10_000;

/** What the writer reports after each page and checks between them. */
export interface PageHooks {
  /** After each page: fraction done. Throwing stops the export (cancelled). */
  page(done: number, total: number): Promise<void>;
}

/** The local hour (0–23) of an instant in a zone. */
const localHour = (ts: number, zone: string) => Number(localIso(ts, zone).slice(11, 13));

/**
 * The starts of an export's rows in [start, end): the buckets of the export's zone (spec 2 §9's
 * intervals, see EXPORT_INTERVALS). Below an hour, multiples of the interval; 1h its local hours;
 * 6h and 12h the local hours 0, 6, 12, 18 (or 0, 12) of each day; 1d its local days; 3d and 1w runs
 * of 3 and 7 local days from the start's day. The first row starts at `start`, the last ends at `end`.
 */
export function exportBuckets(start: number, end: number, interval: number, zone: string): number[] {
  if (interval < 3600) return bucketTimes(start, end, interval, 'UTC', { localHours: false });
  const midnights = localMidnights(start, end, zone);
  const bounds: number[] = [];
  if (interval < 86400) {
    const every = interval / 3600;
    for (const [i, m] of midnights.entries()) {
      const next = midnights[i + 1] ?? endOfPeriod(m, 'day', zone);
      let previous = -1;
      for (let t = m; t < next; t += 3600) {
        // Whole hours from local midnight; at 6h and 12h only those on the local clock's 0, 6, 12, 18
        // (an hour repeated when clocks go back starts no second bucket).
        const hour = every === 1 ? 0 : localHour(t, zone);
        if (every === 1 || (hour % every === 0 && hour !== previous)) bounds.push(t);
        previous = hour;
      }
    }
  } else {
    const days = Math.round(interval / 86400);
    for (const [i, m] of midnights.entries()) if (i % days === 0) bounds.push(m);
  }
  return [start, ...bounds.filter((t) => t > start && t < end)];
}

/**
 * How a node's values for the export's buckets are read: 'exact' asks the node data API's own series
 * at the interval (the node's buckets are the export's: its hours or days line up with the export
 * zone's, or the interval is below an hour); otherwise the stored rows of the coarsest rollup whose
 * buckets lie inside the export's are added up, sum(integral) / sum(covered seconds).
 */
type NodeRead = 'exact' | '5m' | '1h' | '1d';

function readsOf(plan: OperationalPlan): Map<string, NodeRead> {
  const zoneDays = localMidnights(plan.start, plan.end, plan.zone);
  const shift = (t: number) => ((t % 3600) + 3600) % 3600;
  const out = new Map<string, NodeRead>();
  for (const zone of new Set(plan.nodes.map((n) => n.timezone))) {
    const days = localMidnights(plan.start, plan.end, zone);
    const sameDays = zone === plan.zone || (days.length === zoneDays.length && days.every((t, i) => t === zoneDays[i]));
    const sameHours = new Set([...days, ...zoneDays].map(shift)).size === 1;
    const hours: NodeRead = sameHours ? '1h' : '5m';
    const read: NodeRead =
      plan.interval < 3600
        ? 'exact'
        : plan.interval === 3600
          ? sameHours
            ? 'exact'
            : '5m'
          : plan.interval === 86400
            ? sameDays
              ? 'exact'
              : hours
            : plan.interval < 86400
              ? hours
              : sameDays
                ? '1d'
                : hours;
    out.set(zone, read);
  }
  return out;
}

/** Seconds of one stored row of a read (the export's own interval when exact). */
const ROW_SECONDS = { '5m': 300, '1h': 3600, '1d': 86400 } as const;

/**
 * Writes the export's files through `open` (one writer per metric), a page of rows at a time: each
 * page's values are read for all nodes, gathered into a small matrix and written, then the event
 * loop is let go before the next. Answers, per metric, whether it held any value.
 */
export async function writeOperational(
  telemetry: TelemetryStore,
  plan: OperationalPlan,
  writers: readonly FileWriter[],
  hooks: PageHooks,
): Promise<{ metric: ExportMetric; empty: boolean }[]> {
  const files = layoutOf(plan);
  for (const [i, f] of files.entries()) await writers[i].write(stringify([f.header], CSV_OPTIONS));
  const nodeCols = [...new Set(files.flatMap((f) => f.sources.flatMap((s) => (s.kind === 'node' ? [s.col] : []))))];
  const wantsSubs = files.some((f) => f.sources.some((s) => s.kind === 'sub'));
  const nodeIndex = new Map(plan.nodes.map((n, i) => [n.id, i]));
  const subIndex = new Map(plan.submeters.map((s, i) => [s.id, i]));
  const nodeIds = plan.nodes.map((n) => n.id);
  const subIds = wantsSubs ? plan.submeters.map((s) => s.id) : [];
  const reads = readsOf(plan);
  // The nodes of each read, in the export's node order.
  const groups = new Map<NodeRead, number[]>();
  for (const n of plan.nodes) {
    const r = reads.get(n.timezone) as NodeRead;
    const ids = groups.get(r);
    if (ids) ids.push(n.id);
    else groups.set(r, [n.id]);
  }
  const rowSeconds = (r: NodeRead) => (r === 'exact' ? plan.interval : ROW_SECONDS[r]);
  // The finest rows any query of a page reads: a page's span holds at most QUERY_ROWS of them per id.
  const finest = Math.min(...[...groups.keys()].map(rowSeconds), ...(subIds.length ? [300] : []), plan.interval);

  const buckets = exportBuckets(plan.start, plan.end, plan.interval, plan.zone);
  const bucketsPerPage = Math.max(1, Math.floor((plan.pageCells ?? PAGE_CELLS) / Math.max(1, nodeIds.length + subIds.length)));
  const pages: [number, number][] = [];
  for (let i = 0; i < buckets.length; ) {
    let j = i + 1;
    const endOf = (k: number) => buckets[k] ?? plan.end;
    while (j < buckets.length && j - i < bucketsPerPage && (endOf(j + 1) - buckets[i]) / finest <= QUERY_ROWS) j++;
    pages.push([i, j]);
    i = j;
  }

  // Each node's compacted days are unpacked once for the whole export, not again for every page.
  const days = new DayCache();
  for (const [p, [i0, i1]] of pages.entries()) {
    const keys = buckets.slice(i0, i1);
    const a = keys[0];
    days.forgetBefore(a);
    const b = buckets[i1] ?? plan.end;
    // Below an hour the rows are every interval from the page's first: a row's index is arithmetic.
    const row = plan.interval < 3600 ? null : new Map(keys.map((t, k) => [t, k]));
    const rowOf = row ? (t: number) => row.get(t) : (t: number) => (t >= a && t < b && (t - a) % plan.interval === 0 ? (t - a) / plan.interval : undefined);
    // The row holding an instant (rows are sorted): for rollup rows gathered into the export's buckets.
    const bucketOf = (t: number) => {
      if (t < a || t >= b) return undefined;
      let lo = 0;
      let hi = keys.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (keys[mid] <= t) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const cells = keys.length * nodeIds.length;
    const colVals = nodeCols.map(() => new Float64Array(cells).fill(Number.NaN));
    const nodeVals = new Map<MetricColumn, Float64Array>(nodeCols.map((c, j) => [c, colVals[j]]));
    for (const [read, ids] of groups) {
      if (!nodeCols.length) break;
      const rowsPerId = Math.max(1, Math.ceil((b - a) / rowSeconds(read)));
      const perQuery = Math.max(1, Math.min(QUERY_NODES, Math.floor(QUERY_ROWS / rowsPerId)));
      // Rollup rows added up per bucket: integrals and covered seconds, then each value their ratio.
      const cov = read === 'exact' ? null : new Float64Array(cells);
      const sums = read === 'exact' ? [] : nodeCols.map(() => new Float64Array(cells).fill(Number.NaN));
      for (let i = 0; i < ids.length; i += perQuery) {
        const some = ids.slice(i, i + perQuery);
        if (read === 'exact') {
          const rows = await telemetry.nodesSeries(some, nodeCols, a, b, plan.interval, days);
          for (const r of rows) {
            const k = rowOf(Number(r.ts));
            if (k === undefined) continue;
            const base = k * nodeIds.length + (nodeIndex.get(Number(r.node_id)) as number);
            for (let j = 0; j < nodeCols.length; j++) {
              const v = r[nodeCols[j]];
              // roundValue's rule, inlined: this runs for every value of the export.
              if (v !== null && v !== undefined) {
                const n = Math.round(Number(v) * 1000) / 1000;
                if (!Number.isNaN(n)) colVals[j][base] = n;
              }
            }
          }
        } else {
          const rows = await telemetry.nodesRollupRows(read, some, nodeCols, a, b, days);
          for (const r of rows) {
            const k = bucketOf(Number(r.ts));
            if (k === undefined) continue;
            const base = k * nodeIds.length + (nodeIndex.get(Number(r.node_id)) as number);
            (cov as Float64Array)[base] += Number(r.cov);
            for (let j = 0; j < nodeCols.length; j++) {
              const v = r[nodeCols[j]];
              if (v !== null && v !== undefined) sums[j][base] = Number.isNaN(sums[j][base]) ? Number(v) : sums[j][base] + Number(v);
            }
          }
          for (const id of some) {
            const n = nodeIndex.get(id) as number;
            for (let k = 0; k < keys.length; k++) {
              const base = k * nodeIds.length + n;
              const seconds = (cov as Float64Array)[base];
              if (seconds > 0) for (let j = 0; j < nodeCols.length; j++) colVals[j][base] = roundValue(sums[j][base] / seconds) ?? Number.NaN;
            }
          }
        }
        await yieldToLoop();
      }
    }
    const subVals = { p: new Float64Array(keys.length * subIds.length).fill(Number.NaN), q: new Float64Array(keys.length * subIds.length).fill(Number.NaN) };
    // Submeters keep 5-minute rows only: a page's span of them per submeter bounds each query.
    const subsPerQuery = Math.max(1, Math.min(QUERY_NODES, Math.floor(QUERY_ROWS / Math.max(1, Math.ceil((b - a) / 300)))));
    for (let i = 0; i < subIds.length; i += subsPerQuery) {
      const rows = await telemetry.submetersSeries(subIds.slice(i, i + subsPerQuery), a, b);
      const bySub = new Map<number, typeof rows>();
      for (const r of rows) {
        const list = bySub.get(Number(r.submeter_id));
        if (list) list.push(r);
        else bySub.set(Number(r.submeter_id), [r]);
      }
      for (const [id, list] of bySub) {
        const s = subIndex.get(id) as number;
        for (const [k, v] of submeterMeans(list, bucketOf)) {
          if (v.p !== null) subVals.p[k * subIds.length + s] = v.p;
          if (v.q !== null) subVals.q[k * subIds.length + s] = v.q;
        }
      }
      await yieldToLoop();
    }

    for (const [fi, f] of files.entries()) {
      let out = '';
      const cells: string[] = new Array(f.width);
      for (const [k, t] of keys.entries()) {
        let sum = Number.NaN;
        for (let j = 0; j < f.sources.length; j++) {
          const s = f.sources[j];
          const v =
            s.kind === 'node' ? (nodeVals.get(s.col) as Float64Array)[k * nodeIds.length + s.nodeIndex] : subVals[s.field][k * subIds.length + s.subIndex];
          if (plan.aggregate !== null) {
            if (!Number.isNaN(v)) sum = Number.isNaN(sum) ? v : sum + v;
          } else cells[j] = Number.isNaN(v) ? '' : String(v);
        }
        if (plan.aggregate !== null) cells[0] = Number.isNaN(sum) ? '' : String(roundValue(sum));
        if (!f.hasData) f.hasData = cells.some((c) => c !== '');
        // Numbers and an ISO time: exactly what csv-stringify writes for them (nothing to quote or escape).
        out += `${localIso(t, plan.zone)},${t},${cells.join(',')}\r\n`;
        if (out.length > 1 << 20) {
          await writers[fi].write(out);
          out = '';
        }
      }
      if (out) await writers[fi].write(out);
    }
    await hooks.page(p + 1, pages.length);
  }
  return files.map((f) => ({ metric: f.metric, empty: !f.hasData }));
}

/** Lets other requests run between pages (the export shares the process with the API). */
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
