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
  stripes: number;
  unit: string;
  secondaryUnit?: string;
  height?: number;
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
