import { powerScale } from '@vpp/shared/format';
import type { NodeMetric } from '@vpp/shared/nodes/schemas';
import type { Period } from '@vpp/shared/time';
import type { ChartSeries } from '../../components/time-series-chart.tsx';

/** The secondary (right) axis choices of spec 2 §4 and the metrics each draws. */
export const SECONDARY = {
  state_of_charge: { label: 'State of charge', unit: '%', metrics: ['soc'] as NodeMetric[] },
  voltage: { label: 'Voltage', unit: 'V', metrics: ['meterVoltage'] as NodeMetric[] },
  frequency: { label: 'Frequency', unit: 'Hz', metrics: ['meterFrequency'] as NodeMetric[] },
  reactive_power: { label: 'Reactive power', unit: 'kvar', metrics: ['meterReactivePower', 'solarReactivePower'] as NodeMetric[] },
} as const;
export type Secondary = keyof typeof SECONDARY;
export const SECONDARY_KEYS = Object.keys(SECONDARY) as [Secondary, ...Secondary[]];

export const PERIODS = ['day', 'week', 'month'] as const;
/** Zebra stripes per period: half-hours of a day, days of a week or month. */
export const STRIPES: Record<Period, number> = { day: 48, week: 7, month: 30 };

/** The series toggles, in the order of the chips and the legend. */
export const TOGGLES = [
  { key: 'house', label: 'House', color: '#7048e8' },
  { key: 'grid', label: 'Grid', color: '#e03131' },
  { key: 'solar', label: 'Solar', color: '#f59f00' },
  { key: 'sga', label: 'SGA', color: '#fab005' },
  { key: 'battery', label: 'Battery', color: '#2f9e44' },
  { key: 'system', label: 'System', color: '#1c7ed6' },
] as const;
export type Toggle = (typeof TOGGLES)[number]['key'];

/** Phases A, B and C in the Australian phase colours (red, white drawn near black, blue): grid power solid, voltage dashed. */
export const PHASE_COLOURS = ['#e03131', '#343a40', '#1864ab'] as const;
/** The two submeters that may be shown at once, in the order chosen. */
export const SUBMETER_COLOURS = ['#0c8599', '#d6336c'] as const;
const SECONDARY_COLOURS = ['#868e96', '#ae3ec9'] as const;
const PHASE_POWER = ['meterPowerA', 'meterPowerB', 'meterPowerC'] as const;
const TOGGLE_METRIC: Record<Exclude<Toggle, 'system'>, NodeMetric> = {
  house: 'housePower',
  grid: 'meterPower',
  solar: 'solarPower',
  sga: 'meterSGA',
  battery: 'batteryPower',
};

/** What the graph shows: the toggles that are on, the secondary axis, and whether the grid (and voltage) split by phase. */
export interface GraphSettings {
  on: Record<Toggle, boolean>;
  secondary: Secondary;
  /** Split by phase asked for and the node has three phases. */
  phases: boolean;
}

/** The metrics drawn on the secondary axis: the three phase voltages when voltage is split by phase. */
export function secondaryMetrics(s: Pick<GraphSettings, 'secondary' | 'phases'>): NodeMetric[] {
  return s.secondary === 'voltage' && s.phases ? ['meterVoltageA', 'meterVoltageB', 'meterVoltageC'] : [...SECONDARY[s.secondary].metrics];
}

/** The metrics to fetch for the settings (System is solar minus battery, so it needs both). */
export function metricsToFetch(s: GraphSettings): NodeMetric[] {
  const metrics = new Set<NodeMetric>();
  if (s.on.house) metrics.add('housePower');
  if (s.on.grid) for (const m of s.phases ? PHASE_POWER : (['meterPower'] as const)) metrics.add(m);
  if (s.on.solar || s.on.system) metrics.add('solarPower');
  if (s.on.sga) metrics.add('meterSGA');
  if (s.on.battery || s.on.system) metrics.add('batteryPower');
  for (const m of secondaryMetrics(s)) metrics.add(m);
  return [...metrics];
}

/** The node's series as fetched: metric values by timestamp (seconds, as strings). */
export type SeriesData = Record<string, Record<string, number | null>>;
/** A submeter's series as fetched: real (p) and reactive (q) power by timestamp. */
export type SubmeterData = Record<string, { p: number | null; q: number | null }>;

export interface MonitoringChart {
  x: number[];
  lines: ChartSeries[];
  /** The power axis unit: MW when the largest power exceeds 1000 kW (the power lines are then scaled). */
  unit: 'kW' | 'MW';
  /** No timestamps, or not one value in any line. */
  empty: boolean;
  /** The first timestamp left out as a partial period (today in a month view), or null. */
  omitted: number | null;
}

/**
 * The monitoring graph's lines from the fetched data: the toggled series on the power axis (grid by
 * phase when split), up to two submeters dashed, the secondary metrics on the right axis.
 */
export function buildMonitoringChart(
  settings: GraphSettings,
  data: SeriesData | undefined,
  submeters: { name: string; data: SubmeterData | undefined }[] = [],
  /** Buckets from this time on are partial (today in a month view): their values are left out rather than drawn as whole days. */
  partialFrom?: number,
): MonitoringChart {
  const series = data ?? {};
  const x = Object.keys(series)
    .map(Number)
    .sort((a, b) => a - b);
  const kept = (t: number) => partialFrom === undefined || t < partialFrom;
  const omitted = x.find((t) => !kept(t)) ?? null;
  const col = (m: NodeMetric) => x.map((t) => (kept(t) ? (series[t]?.[m] ?? null) : null));
  const lines: ChartSeries[] = [];
  for (const t of TOGGLES) {
    if (!settings.on[t.key]) continue;
    if (t.key === 'grid' && settings.phases) {
      PHASE_POWER.forEach((m, i) => {
        lines.push({ label: `Grid phase ${'ABC'[i]}`, values: col(m), color: PHASE_COLOURS[i], axis: 'y' });
      });
      continue;
    }
    const values =
      t.key === 'system'
        ? x.map((ts) => {
            if (!kept(ts)) return null;
            const s = series[ts]?.solarPower;
            const b = series[ts]?.batteryPower;
            return s === null || s === undefined || b === null || b === undefined ? null : s - b;
          })
        : col(TOGGLE_METRIC[t.key]);
    lines.push({ label: t.label, values, color: t.color, axis: 'y' });
  }
  submeters.forEach((sub, i) => {
    const d = sub.data ?? {};
    lines.push({ label: sub.name, values: x.map((t) => (kept(t) ? (d[t]?.p ?? null) : null)), color: SUBMETER_COLOURS[i % 2], axis: 'y', dash: [4, 3] });
  });
  const secondary = secondaryMetrics(settings);
  for (const [i, m] of secondary.entries()) {
    lines.push({
      label:
        secondary.length > 1
          ? `${SECONDARY[settings.secondary].label} ${m.replace(/^meter(Voltage|ReactivePower)|^solarReactivePower/, (s) => (s.startsWith('solar') ? 'solar' : ''))}`.trim()
          : SECONDARY[settings.secondary].label,
      values: col(m),
      // Phase voltages in their phase colours; otherwise grey, and a second line (solar reactive power) in grape.
      color: secondary.length === 3 ? PHASE_COLOURS[i] : SECONDARY_COLOURS[i],
      axis: 'y2',
      dash: [2, 2],
    });
  }
  const maxAbs = Math.max(0, ...lines.filter((l) => l.axis === 'y').flatMap((l) => l.values.map((v) => Math.abs(v ?? 0))));
  const scale = powerScale(maxAbs);
  for (const l of lines) if (l.axis === 'y' && scale.factor !== 1) l.values = l.values.map((v) => (v === null ? null : v * scale.factor));
  const empty = x.length === 0 || (omitted === null && lines.every((l) => l.values.every((v) => v === null)));
  return { x, lines, unit: scale.unit, empty, omitted };
}

/** The submeters' names as shown: a name that several of the node's submeters share gets the meter id too ("Hot water (meter 12)"). */
export function submeterLabels(subMeters: { id: number; name: string }[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const m of subMeters) count.set(m.name, (count.get(m.name) ?? 0) + 1);
  return new Map(subMeters.map((m) => [m.id, (count.get(m.name) ?? 0) > 1 ? `${m.name} (meter ${m.id})` : m.name]));
}
