import { type ExportMetric, exportMetricOption, type NodeMetric } from '@vpp/shared';
import { stringify } from 'csv-stringify/sync';
import type { MetricColumn } from '../../fleet/metrics.ts';
import { METRIC_TO_COLUMN } from '../../fleet/metrics.ts';
import { bucketTimes, roundValue, submeterBuckets } from '../../fleet/series.ts';
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

/**
 * Writes the export's files through `open` (one writer per metric), a page of time at a time: each
 * page's rows are read for all nodes, gathered into a small matrix and written, then the event loop
 * is let go before the next. Answers, per metric, whether it held any value.
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
  const zones = [...new Set(plan.nodes.map((n) => n.timezone))];
  const localBuckets = plan.interval === 3600 || plan.interval === 86400;
  // Pages of whole buckets: days for daily data, hours otherwise.
  const unit = plan.interval === 86400 ? 86400 : 3600;
  const bucketsPerPage = Math.max(1, Math.floor((plan.pageCells ?? PAGE_CELLS) / Math.max(1, plan.nodes.length + plan.submeters.length)));
  const pageS = unit * Math.ceil((bucketsPerPage * plan.interval) / unit);
  const pages: [number, number][] = [];
  for (let a = plan.start; a < plan.end; a += pageS) pages.push([a, Math.min(plan.end, a + pageS)]);
  const nodeIds = plan.nodes.map((n) => n.id);
  const subIds = plan.submeters.map((s) => s.id);
  const subZone = new Map(plan.submeters.map((s) => [s.id, plan.nodes[nodeIndex.get(s.nodeId) as number].timezone]));

  for (const [p, [a, b]] of pages.entries()) {
    // The rows of the page: every bucket of every zone among the nodes (hours and days are each node's own).
    const keys = localBuckets
      ? [...new Set(zones.flatMap((z) => bucketTimes(a, b, plan.interval, z, { localHours: true })))].sort((x, y) => x - y)
      : bucketTimes(a, b, plan.interval, 'UTC', { localHours: false });
    const row = new Map(keys.map((t, i) => [t, i]));
    // At 5 to 30 minutes the rows are every interval from the page's first: a row's index is arithmetic.
    const rowOf = localBuckets
      ? (t: number) => row.get(t)
      : (t: number) => (t >= keys[0] && t < b && (t - keys[0]) % plan.interval === 0 ? (t - keys[0]) / plan.interval : undefined);
    const colVals = nodeCols.map(() => new Float64Array(keys.length * nodeIds.length).fill(Number.NaN));
    const nodeVals = new Map<MetricColumn, Float64Array>(nodeCols.map((c, j) => [c, colVals[j]]));
    const perQuery = Math.max(1, Math.min(QUERY_NODES, Math.floor(QUERY_ROWS / Math.max(1, keys.length))));
    for (let i = 0; i < nodeIds.length && nodeCols.length; i += perQuery) {
      const rows = await telemetry.nodesSeries(nodeIds.slice(i, i + perQuery), nodeCols, a, b, plan.interval);
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
      await yieldToLoop();
    }
    const subVals = { p: new Float64Array(wantsSubs ? keys.length * subIds.length : 0).fill(Number.NaN), q: new Float64Array(0) };
    subVals.q = new Float64Array(subVals.p.length).fill(Number.NaN);
    if (wantsSubs)
      for (let i = 0; i < subIds.length; i += perQuery) {
        // A local hour or day of another zone may straddle the page's edge: its 5-minute rows are read
        // whole (within the export's range), and each bucket is written in the page holding its start.
        const from = Math.max(plan.start, a - 86400);
        const to = Math.min(plan.end, b + 86400);
        const rows = await telemetry.submetersSeries(subIds.slice(i, i + perQuery), from, to);
        const bySub = new Map<number, typeof rows>();
        for (const r of rows) {
          const list = bySub.get(Number(r.submeter_id));
          if (list) list.push(r);
          else bySub.set(Number(r.submeter_id), [r]);
        }
        for (const [id, list] of bySub) {
          const s = subIndex.get(id) as number;
          for (const [t, v] of submeterBuckets(list, plan.interval, subZone.get(id) as string, from, to)) {
            const k = row.get(t);
            if (k === undefined) continue;
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
