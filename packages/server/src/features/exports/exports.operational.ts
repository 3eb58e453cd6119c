import { type ExportMetric, exportMetricOption } from '@vpp/shared/exports/schemas';
import type { NodeMetric } from '@vpp/shared/nodes/schemas';
import { endOfPeriod, localMidnights } from '@vpp/shared/time';
import { stringify } from 'csv-stringify/sync';
import { type DatabaseSource, readerOf } from '../../db/database.ts';
import { CSV_OPTIONS, NUMBER_BYTES, Pieces } from '../../platform/csv.ts';
import type { FileWriter } from '../../platform/downloads.ts';
import { streamInWorker } from '../../platform/run-in-worker.ts';
import type { MetricColumn } from '../../telemetry/index.ts';
import { bucketTimes, METRIC_TO_COLUMN, roundValue, submeterMeans, TelemetryStore } from '../../telemetry/index.ts';

// The operational export: one CSV per metric, a row per interval and a column per node (or phase, or
// submeter), or one summed column for a whole VPP. Values come from the telemetry's one read path
// (the telemetry store's stream of buckets, telemetry/series.ts), rounded as the node data API rounds them.

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
  /** Values a page holds at most (EXPORT_PAGE_VALUES, default PAGE_VALUES): its memory. */
  pageValues?: number;
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

/** Nodes (or submeters) per query at most: a bounded IN list on both databases. */
export const QUERY_NODES = 1000;
/**
 * Rows one query reads at most: SQLite answers a query in one go on the event loop, so a query of
 * 100,000 rows would hold every other request for a good part of a second.
 */
export const QUERY_ROWS = 10_000;

/** What an export reads: the telemetry store's stream of buckets, and the submeters' series. */
type HistoryReader = Pick<TelemetryStore, 'buckets' | 'submetersSeries'>;

/** A piece of an export's files: text of file `file` as UTF-8, a page done, or (the last) which files held no value. */
export type OperationalPiece = { file: number; text: Uint8Array } | { page: number; pages: number } | { empty: boolean[] };

const COMMA = 44;
const CR = 13;
const LF = 10;

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

/** Values (export cells × node columns, with their covered seconds) one page holds at most: 8 bytes each. */
export const PAGE_VALUES = 6_000_000;

/**
 * The export's files as pieces, a page of rows at a time (see `writeOperational`). Each node's
 * 5-minute history over the page is read from the telemetry store's stream of buckets and added up
 * into the export's buckets in columns (sum of value × seconds, and seconds), so a row's value is
 * the time-weighted average the node data API gives for the same bucket, added in the same order;
 * then the page's rows are written and the event loop let go before the next.
 */
async function* operationalPieces(telemetry: HistoryReader, plan: OperationalPlan): AsyncGenerator<OperationalPiece> {
  const files = layoutOf(plan);
  for (const [i, f] of files.entries()) yield { file: i, text: new TextEncoder().encode(stringify([f.header], CSV_OPTIONS)) };
  const nodeCols = [...new Set(files.flatMap((f) => f.sources.flatMap((s) => (s.kind === 'node' ? [s.col] : []))))];
  const wantsSubs = files.some((f) => f.sources.some((s) => s.kind === 'sub'));
  const nodeIndex = new Map(plan.nodes.map((n, i) => [n.id, i]));
  const subIndex = new Map(plan.submeters.map((s, i) => [s.id, i]));
  const nodeIds = plan.nodes.map((n) => n.id);
  const subIds = wantsSubs ? plan.submeters.map((s) => s.id) : [];
  const width = nodeIds.length;

  // Pages of whole rows: at most PAGE_VALUES values in memory, and a span whose 5-minute rows per
  // node stay within QUERY_ROWS (the recent rows one query may return per node).
  const buckets = exportBuckets(plan.start, plan.end, plan.interval, plan.zone);
  const perRow = Math.max(1, width * (nodeCols.length ? nodeCols.length + 1 : 0) + subIds.length * 2);
  const rowsPerPage = Math.max(1, Math.floor((plan.pageValues ?? PAGE_VALUES) / perRow));
  const pages: [number, number][] = [];
  for (let i = 0; i < buckets.length; ) {
    let j = i + 1;
    const endOf = (k: number) => buckets[k] ?? plan.end;
    while (j < buckets.length && j - i < rowsPerPage && (endOf(j + 1) - buckets[i]) / 300 <= QUERY_ROWS) j++;
    pages.push([i, j]);
    i = j;
  }

  for (const [p, [i0, i1]] of pages.entries()) {
    const keys = buckets.slice(i0, i1);
    const a = keys[0];
    const b = buckets[i1] ?? plan.end;
    // The row holding an instant (rows are sorted), or undefined outside the page.
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
    const cells = keys.length * width;
    const cov = new Float64Array(nodeCols.length ? cells : 0);
    const colVals = nodeCols.map(() => new Float64Array(cells).fill(Number.NaN));
    if (nodeCols.length) {
      const perQuery = Math.max(1, Math.min(QUERY_NODES, Math.floor(QUERY_ROWS / Math.max(1, Math.ceil((b - a) / 300)))));
      for (let i = 0; i < nodeIds.length; i += perQuery) {
        // A node's buckets come in time order: its row is found once, then moves on only forward.
        let node = -1;
        let n = 0;
        let k = 0;
        await telemetry.buckets(nodeIds.slice(i, i + perQuery), nodeCols, a, b, (id, ts, seconds, values) => {
          if (id !== node) {
            node = id;
            n = nodeIndex.get(id) as number;
            k = bucketOf(ts) as number;
          } else while (k + 1 < keys.length && keys[k + 1] <= ts) k++;
          const cell = k * width + n;
          cov[cell] += seconds;
          for (let j = 0; j < nodeCols.length; j++) {
            const v = values[j];
            if (Number.isNaN(v)) continue;
            const sum = colVals[j][cell];
            colVals[j][cell] = Number.isNaN(sum) ? v : sum + v;
          }
        });
        await yieldToLoop();
      }
      // Each cell's average, rounded as the node data API rounds it.
      for (let j = 0; j < nodeCols.length; j++) {
        const vals = colVals[j];
        for (let c = 0; c < cells; c++) {
          const v = vals[c];
          if (!Number.isNaN(v)) vals[c] = cov[c] > 0 ? Math.round((v / cov[c]) * 1000) / 1000 : Number.NaN;
        }
      }
    }
    const nodeVals = new Map<MetricColumn, Float64Array>(nodeCols.map((c, j) => [c, colVals[j]]));
    const subVals = { p: new Float64Array(keys.length * subIds.length).fill(Number.NaN), q: new Float64Array(keys.length * subIds.length).fill(Number.NaN) };
    // Submeters: a page's span of 5-minute rows per submeter bounds each query.
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
      const out = new Pieces();
      // Each source's values and the stride of a row in them.
      const reads = f.sources.map((s) =>
        s.kind === 'node'
          ? { vals: nodeVals.get(s.col) as Float64Array, at: s.nodeIndex, stride: width }
          : { vals: subVals[s.field], at: s.subIndex, stride: subIds.length },
      );
      // Numbers and an ISO time: exactly what csv-stringify writes for them (nothing to quote or
      // escape), written as UTF-8 straight into the pieces: no string per row or per value.
      const rowBytes = 64 + (plan.aggregate !== null ? NUMBER_BYTES + 1 : reads.length * (NUMBER_BYTES + 1));
      for (const [k, t] of keys.entries()) {
        const full = out.room(rowBytes);
        if (full) yield { file: fi, text: full };
        out.text(`${localIso(t, plan.zone)},${t}`);
        if (plan.aggregate !== null) {
          let sum = Number.NaN;
          for (const r of reads) {
            const v = r.vals[k * r.stride + r.at];
            if (!Number.isNaN(v)) sum = Number.isNaN(sum) ? v : sum + v;
          }
          out.byte(COMMA);
          if (!Number.isNaN(sum)) {
            f.hasData = true;
            out.number(roundValue(sum) as number);
          }
        } else {
          for (const r of reads) {
            const v = r.vals[k * r.stride + r.at];
            out.byte(COMMA);
            if (!Number.isNaN(v)) {
              out.number(v);
              f.hasData = true;
            }
          }
        }
        out.byte(CR);
        out.byte(LF);
      }
      const last = out.take();
      if (last) yield { file: fi, text: last };
    }
    yield { page: p + 1, pages: pages.length };
  }
  yield { empty: files.map((f) => !f.hasData) };
}

/** The export's pieces made in a streaming worker (streamInWorker calls it by name) from a reader of its own, the text as UTF-8. */
export async function* operationalTask(data: { source: DatabaseSource; plan: OperationalPlan }): AsyncGenerator<OperationalPiece> {
  yield* operationalPieces(new TelemetryStore(await readerOf(data.source), data.source.dialect, 0), data.plan);
}

/**
 * Writes the export's files through `writers` (one per metric), a page of rows at a time, calling
 * `hooks.page` after each (it may throw to stop the export). With `worker`, the database the export
 * reads, the reading and the writing of the rows run in a streaming worker with a reader of its own
 * (platform/run-in-worker.ts), so that the API's thread only moves the bytes to the files and the
 * second core does the work; the files are the same bytes either way. A throw from `hooks.page`
 * stops the worker's task. Answers, per metric, whether it held any value.
 */
export async function writeOperational(
  telemetry: TelemetryStore,
  plan: OperationalPlan,
  writers: readonly FileWriter[],
  hooks: PageHooks,
  worker?: DatabaseSource,
): Promise<{ metric: ExportMetric; empty: boolean }[]> {
  const pieces = worker
    ? streamInWorker<OperationalPiece>({ module: import.meta.url, run: 'operationalTask' }, { source: worker, plan })
    : operationalPieces(telemetry, plan);
  let empty: boolean[] = [];
  for await (const piece of pieces) {
    if ('file' in piece) await writers[piece.file].write(piece.text);
    else if ('page' in piece) await hooks.page(piece.page, piece.pages);
    else empty = piece.empty;
  }
  return plan.metrics.map((metric, i) => ({ metric, empty: empty[i] ?? true }));
}

/** Lets other requests run between pages (the export shares the process with the API). */
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
