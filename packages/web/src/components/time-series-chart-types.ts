export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** 'y' is the power axis (left), 'y2' the secondary axis (right). */
  axis: 'y' | 'y2';
  dash?: number[];
}

export interface TimeSeriesChartProps {
  x: number[];
  series: ChartSeries[];
  timeZone: string;
  start: number;
  end: number;
  /** Zebra stripes: [start, end) split into this many equal bands, or the bands' edges (epoch seconds, e.g. local midnights). */
  stripes: number | number[];
  unit: string;
  secondaryUnit?: string;
  height?: number;
  /** A small chart (a dashboard widget): no legend under it and little room under the time axis, so the plot takes the height. */
  compact?: boolean;
  label: string;
  /** A tick at every multiple of this many seconds (labels thinned to fit); otherwise uPlot's own choice. */
  tickEvery?: number;
  /** A time span [from, to) shaded across the plot (an event's duration). */
  highlight?: [number, number];
  /** Pads the left axis's domain by this share of the data's span on both sides (0.22 for spec 3 §9). */
  yPad?: number;
  /** When given, dragging across the plot selects a time range (epoch seconds, from < to) instead of zooming. */
  onSelect?: (from: number, to: number) => void;
}

/** [min, max] widened by `pad` of its span on both sides; a flat or empty series still gets a domain. */
export function padRange(min: number | null, max: number | null, pad: number): [number, number] {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const span = max - min || Math.abs(max) || 1;
  return [min - span * pad, max + span * pad];
}

/** The edges of the zebra bands over [start, end): `stripes` equal bands, or the given edges held within [start, end]. */
export function stripeEdges(stripes: number | number[], start: number, end: number): number[] {
  if (Array.isArray(stripes)) return [...new Set([start, ...stripes.filter((t) => t > start && t < end), end])].sort((a, b) => a - b);
  const w = (end - start) / stripes;
  return Array.from({ length: stripes + 1 }, (_, i) => start + i * w);
}

/** A time as the chart's tooltips show it: dd/MM HH:mm in the chart's zone. */
export function tooltipTime(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', { timeZone, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(ts * 1000),
  );
}

/** The data table under a chart: a header per column (time, then each series with its unit) and a row per time with a value, values to 2 decimals as in the tooltips. */
export function chartTable(p: Pick<TimeSeriesChartProps, 'x' | 'series' | 'timeZone' | 'unit' | 'secondaryUnit'>): {
  head: string[];
  rows: { ts: number; cells: string[] }[];
} {
  const unitOf = (s: ChartSeries) => (s.axis === 'y' ? p.unit : (p.secondaryUnit ?? ''));
  const head = ['Time', ...p.series.map((s) => (unitOf(s) ? `${s.label} (${unitOf(s)})` : s.label))];
  const valueAt = (s: ChartSeries, i: number) => s.values[i] ?? null;
  // A time at which no series has a value (before the data starts, after it ends) is left out.
  const rows = p.x.flatMap((ts, i) =>
    p.series.every((s) => valueAt(s, i) === null)
      ? []
      : [{ ts, cells: [tooltipTime(ts, p.timeZone), ...p.series.map((s) => valueAt(s, i)?.toFixed(2) ?? '–')] }],
  );
  return { head, rows };
}
