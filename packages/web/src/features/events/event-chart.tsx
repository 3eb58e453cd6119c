import { Alert, Box, Center, Stack, Text } from '@mantine/core';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { DispatchPredictions } from '@vpp/shared/dispatches/schemas';
import { powerScale } from '@vpp/shared/format';
import { MARKET_SERIES_STEP_S } from '@vpp/shared/market/rules';
import { endOfPeriod } from '@vpp/shared/time';
import { memo, type ReactNode, useMemo } from 'react';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { type ChartSeries, TimeSeriesChart, type TimeSeriesChartProps } from '../../components/time-series-chart.tsx';
import { GRAPH_TICK_S, GRAPH_Y_PAD } from './event-format.ts';

/** Half-hour stripes: 48 over a day (spec 3 §9). */
const STRIPES = 48;

export interface PredictionSeries {
  x: number[];
  series: ChartSeries[];
  unit: string;
  secondaryUnit?: string;
}

/**
 * The prediction graph's series: the VPP's grid power as predicted and with the dispatch applied
 * (kW, or MW when a value passes 1000), and on the right the region's price ($/MWh, 30-minute steps)
 * when the reply carries it, otherwise the batteries' charge with the dispatch (%). null when the day
 * holds no value at all.
 */
export function predictionSeries(p: DispatchPredictions): PredictionSeries | null {
  const x = Object.keys(p.prediction)
    .map(Number)
    .sort((a, b) => a - b);
  const grid = x.map((t) => p.prediction[t]?.meterPower ?? null);
  const adjusted = x.map((t) => p.adjustedPrediction?.[t]?.meterPower ?? null);
  const values = [...grid, ...adjusted].filter((v): v is number => v !== null);
  if (!values.length) return null;
  const scale = powerScale(Math.max(...values.map(Math.abs)));
  const scaled = (vs: (number | null)[]) => vs.map((v) => (v === null ? null : v * scale.factor));
  const series: ChartSeries[] = [
    { label: 'Prediction', values: scaled(grid), color: '#868e96', axis: 'y' },
    { label: 'With dispatch', values: scaled(adjusted), color: '#1c7ed6', axis: 'y' },
  ];
  const rrp = p.market?.rrp;
  if (rrp) {
    const price = x.map((t) => rrp[t - (t % MARKET_SERIES_STEP_S)] ?? null);
    series.push({ label: 'Price', values: price, color: '#f08c00', axis: 'y2', dash: [4, 4] });
    return { x, series, unit: scale.unit, secondaryUnit: '$/MWh' };
  }
  const soc = x.map((t) => (p.adjustedPrediction ?? p.prediction)[t]?.soc ?? null);
  series.push({ label: 'State of charge', values: soc, color: '#2f9e44', axis: 'y2', dash: [4, 4] });
  return { x, series, unit: scale.unit, secondaryUnit: '%' };
}

/**
 * The forecast's measured error in one line beside the prediction (issue 33 §2): the VPP's median
 * absolute error at 5 minutes over the last day, and its share of the net demand measured.
 */
export function forecastErrorText(e: DispatchPredictions['forecastError']): string {
  if (e.medianAbsoluteErrorKw === null) return 'Forecast error: not yet measured (no reporting history over the last day).';
  const share = e.relativeErrorPercent === null ? '' : ` (${e.relativeErrorPercent.toFixed(1)}% of net demand)`;
  return `Forecast error over the last day: ${e.medianAbsoluteErrorKw.toFixed(2)} kW median at 5 minutes${share}.`;
}

/** A graph as an event's chart draws it: the chart's own props, less what every event graph shares (height, y padding, ticks). */
export type EventChartProps = Omit<TimeSeriesChartProps, 'height' | 'yPad' | 'tickEvery'>;

/**
 * An event's prediction graph (the New Dispatch modal's day, a curtailment's window; spec 3 §9): the
 * warnings above it, the chart once there is something to draw, a loader while the first answer is
 * coming, otherwise `empty`; `children` below it.
 */
export function EventChartFrame(props: {
  warnings: (string | null | undefined)[];
  chart: EventChartProps | null;
  loading: boolean;
  empty: string;
  height: number;
  children?: ReactNode;
}) {
  const { chart, height } = props;
  return (
    <Stack gap={4}>
      {props.warnings.map(
        (w) =>
          w && (
            <Alert key={w} color="yellow" variant="light" p="xs">
              {w}
            </Alert>
          ),
      )}
      <Box pos="relative" mih={height}>
        {chart ? (
          <TimeSeriesChart {...chart} height={height} yPad={GRAPH_Y_PAD} tickEvery={GRAPH_TICK_S} />
        ) : props.loading ? (
          <DelayedLoader minHeight={height} label="Loading prediction" />
        ) : (
          <Center mih={height}>
            <Text c="dimmed">{props.empty}</Text>
          </Center>
        )}
      </Box>
      {props.children}
    </Stack>
  );
}

/**
 * The prediction graph of the New Dispatch modal (spec 3 §2.3, §9): the day from `dayStart`, the
 * dispatch window shaded, and a drag across it choosing a new window.
 */
export const NewDispatchChart = memo(function NewDispatchChart(props: {
  data: DispatchPredictions | undefined;
  loading: boolean;
  dayStart: number;
  zone: string;
  /** The dispatch window, epoch seconds. */
  from: number;
  to: number;
  onSelect: (from: number, to: number) => void;
}) {
  const { data, loading, dayStart, zone, from, to, onSelect } = props;
  const drawn = useMemo(() => (data ? predictionSeries(data) : null), [data]);
  const end = endOfPeriod(dayStart, 'day', zone);
  const highlight = useMemo((): [number, number] => [from, to], [from, to]);
  return (
    <EventChartFrame
      warnings={[data?.warning, data?.market?.multipleRegions ? DISPATCH_MESSAGES.multipleRegions : null]}
      chart={
        drawn && {
          label: 'Dispatch prediction',
          x: drawn.x,
          series: drawn.series,
          timeZone: zone,
          start: dayStart,
          end,
          stripes: STRIPES,
          unit: drawn.unit,
          secondaryUnit: drawn.secondaryUnit,
          highlight,
          onSelect,
        }
      }
      loading={loading}
      empty={DISPATCH_MESSAGES.noGraphData}
      height={230}
    >
      {drawn && (
        <Text size="xs" c="dimmed">
          Drag across the graph to choose the dispatch window.
        </Text>
      )}
      {data && (
        <Text size="xs" c="dimmed" title="The day-ahead forecast of the VPP's undisturbed homes' net demand (load less solar) against what they measured">
          {forecastErrorText(data.forecastError)}
        </Text>
      )}
    </EventChartFrame>
  );
});
